-- Up Migration

-- Calendly and Cal.com events are applied once each, like Stripe's and Slack's.
ALTER TABLE webhook_receipts DROP CONSTRAINT webhook_receipts_provider_check;
ALTER TABLE webhook_receipts ADD CONSTRAINT webhook_receipts_provider_check
  CHECK (provider IN ('stripe', 'slack', 'calendly', 'calcom'));

-- The scheduling provider's webhook signing key: chosen by the coach in Calendly or Cal.com and
-- pasted into the scheduling card, so unlike the automation card's secret it is not generated
-- here. Write-only: the admin reads it back masked.
ALTER TABLE integration_settings ADD COLUMN webhook_key text CHECK (length(webhook_key) BETWEEN 16 AND 500);

-- Down Migration
ALTER TABLE integration_settings DROP COLUMN webhook_key;
DELETE FROM webhook_receipts WHERE provider IN ('calendly', 'calcom');
ALTER TABLE webhook_receipts DROP CONSTRAINT webhook_receipts_provider_check;
ALTER TABLE webhook_receipts ADD CONSTRAINT webhook_receipts_provider_check CHECK (provider IN ('stripe', 'slack'));
