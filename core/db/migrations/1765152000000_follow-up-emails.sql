-- Up Migration

-- The follow-up reminders: one to finish an abandoned assessment, one to book the session a paid
-- deposit holds. They are the only emails an address can turn off; results, receipts and homework
-- are what the lead asked for and still go.
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice', 'results',
                  'deposit_receipt', 'refund_confirmation', 'assessment_reminder', 'booking_reminder'));

-- Extra message headers an email is sent with (the reminders' List-Unsubscribe and
-- List-Unsubscribe-Post), kept with the row so a retry sends exactly what was written.
ALTER TABLE email_outbox ADD COLUMN headers jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(headers) = 'object');

-- Addresses that asked for no more reminders, lower-cased (leads are one per address,
-- case-insensitively), with when and how: the mail client's one-click unsubscribe (RFC 8058) or
-- the page the email links to. Kept when a lead is deleted: it is what stops a new lead for the
-- same address being reminded again.
CREATE TABLE email_unsubscribes (
  email      text PRIMARY KEY CHECK (email = lower(email) AND email LIKE '%_@_%' AND length(email) <= 320),
  how        text NOT NULL CHECK (how IN ('one_click', 'page')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE email_unsubscribes;
ALTER TABLE email_outbox DROP COLUMN headers;
DELETE FROM email_outbox WHERE kind IN ('assessment_reminder', 'booking_reminder');
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
  CHECK (kind IN ('contact_confirmation', 'contact_notification', 'homework', 'free_resources', 'sign_in_notice', 'results', 'deposit_receipt', 'refund_confirmation'));
