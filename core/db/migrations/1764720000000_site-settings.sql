-- Up Migration

-- The coach's site settings (community page, social profiles, contact details): one row for the
-- whole site, the document checked by core/site/settings.ts on every write and read. No row
-- means the defaults, so a fresh install behaves as before the settings existed. The booking page
-- is not here: it stays in the scheduling row of integration_settings.
CREATE TABLE site_settings (
  id         boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings   jsonb NOT NULL CHECK (jsonb_typeof(settings) = 'object' AND length(settings::text) <= 20000),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER site_settings_updated_at BEFORE UPDATE ON site_settings FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Down Migration
DROP TABLE site_settings;
