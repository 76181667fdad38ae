-- Up Migration

-- The deposit's receipt and the refund's confirmation, which the payment pages promise.
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice', 'results', 'deposit_receipt', 'refund_confirmation'));

-- Down Migration
DELETE FROM email_outbox WHERE kind IN ('deposit_receipt', 'refund_confirmation');
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice', 'results'));
