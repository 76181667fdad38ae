-- Up Migration

-- The diagnostic times its screens itself: the server stamps every event it applies to a
-- diagnostic flow with its clock (`at`), and the machine keeps when the current screen was shown
-- in its own snapshot. The separate screen stamp is no longer read or written.
ALTER TABLE flows DROP COLUMN step_started_at;

-- Down Migration
ALTER TABLE flows ADD COLUMN step_started_at timestamptz;
