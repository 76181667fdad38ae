-- Up Migration

-- The email-marketing card's Brevo list (decision 0048): the list every confirmed lead is added to.
ALTER TABLE integration_settings ADD COLUMN list_id text CHECK (list_id ~ '^[1-9][0-9]{0,9}$');

-- Where each confirmed lead stands at the email-marketing provider: what was last sent for it
-- (subscribed with its tier, archetype and source, or unsubscribed) and when, or why the last
-- attempt failed. The card's "last sync" is the newest row; a lead's row goes with the lead.
CREATE TABLE marketing_contacts (
  lead_id    uuid PRIMARY KEY REFERENCES leads (lead_id) ON DELETE CASCADE,
  synced_as  text CHECK (synced_as IN ('subscribed', 'unsubscribed')),
  synced_at  timestamptz,
  error      text CHECK (length(error) <= 500),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX marketing_contacts_updated_at ON marketing_contacts (updated_at DESC);

-- Down Migration
DROP TABLE marketing_contacts;
ALTER TABLE integration_settings DROP COLUMN list_id;
