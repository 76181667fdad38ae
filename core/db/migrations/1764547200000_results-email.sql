-- Up Migration

-- The results email the capture step promises, sent when the assessment is graded.
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice', 'results'));

-- Down Migration
DELETE FROM email_outbox WHERE kind = 'results';
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice'));
