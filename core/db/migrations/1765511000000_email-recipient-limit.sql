-- Up Migration

-- Mail by consent (decision 0045): an email to a typed address that would pass the per-recipient
-- limit is not sent and ends 'skipped', its reason in `error`; a skipped row is settled, never
-- retried. The index serves the count of what one address was delivered within the window.
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_status_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_status_check
  CHECK (status IN ('pending', 'sent', 'recorded', 'failed', 'skipped'));
CREATE INDEX email_outbox_delivered_to_idx ON email_outbox (lower(to_address), created_at)
  WHERE status IN ('sent', 'recorded');

-- Down Migration
DROP INDEX email_outbox_delivered_to_idx;
UPDATE email_outbox SET status = 'failed' WHERE status = 'skipped';
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_status_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_status_check
  CHECK (status IN ('pending', 'sent', 'recorded', 'failed'));
