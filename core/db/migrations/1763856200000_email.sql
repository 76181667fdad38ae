-- Up Migration

-- The coach answers a contact notification with their mail client's Reply: the notification is
-- sent from EMAIL_FROM but carries the visitor's address as Reply-To.
ALTER TABLE email_outbox ADD COLUMN reply_to text CHECK (reply_to LIKE '%_@_%' AND length(reply_to) <= 320);

-- Down Migration
ALTER TABLE email_outbox DROP COLUMN reply_to;
