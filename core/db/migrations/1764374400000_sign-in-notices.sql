-- Up Migration

-- The note an admin account's owner gets when it sees many failed sign-ins in an hour.
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice'));

-- Down Migration
DELETE FROM email_outbox WHERE kind = 'sign_in_notice';
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources'));
