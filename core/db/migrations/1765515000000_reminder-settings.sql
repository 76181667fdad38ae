-- Up Migration

-- The follow-up reminders as the coach sets them in the admin (decision 0049): whether each is
-- sent and how long after its start it comes. Read when a flow sets its timer, so a change applies
-- to every timer set after it without a restart; no row means the server's configured default
-- (BOOKING_REMINDER_HOURS, ASSESSMENT_REMINDER_HOURS) and on.
CREATE TABLE reminder_settings (
  kind        text PRIMARY KEY CHECK (kind IN ('booking_reminder', 'assessment_reminder')),
  enabled     boolean NOT NULL,
  delay_hours numeric NOT NULL CHECK (delay_hours > 0 AND delay_hours <= 720),
  updated_by  uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER reminder_settings_updated_at BEFORE UPDATE ON reminder_settings FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Down Migration
DROP TABLE reminder_settings;
