-- Up Migration

-- Delayed flow events (a machine's `after` delays, the test payment's 1 s) run as jobs of their
-- own queue, held back by the relay until run_after.
ALTER TABLE jobs DROP CONSTRAINT jobs_queue_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_queue_check
  CHECK (queue IN ('grading', 'homework', 'mirror', 'email', 'webhooks', 'slack', 'timers'));
ALTER TABLE jobs ADD COLUMN run_after timestamptz;

-- When the screen the visitor is answering was shown, stamped by the server: timed questions are
-- enforced and response times checked against it, not against the browser's own clock.
ALTER TABLE flows ADD COLUMN step_started_at timestamptz;

-- Down Migration
ALTER TABLE flows DROP COLUMN step_started_at;
ALTER TABLE jobs DROP COLUMN run_after;
DELETE FROM jobs WHERE queue = 'timers';
ALTER TABLE jobs DROP CONSTRAINT jobs_queue_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_queue_check
  CHECK (queue IN ('grading', 'homework', 'mirror', 'email', 'webhooks', 'slack'));
