-- Up Migration

-- What visitors' pages are drawn with (the site settings, and the booking page among the
-- integrations) is kept in each server's memory; any change to those tables, by any writer,
-- announces itself on hf_public_settings when it commits, and the servers read them again.
CREATE FUNCTION notify_public_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hf_public_settings', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
CREATE TRIGGER site_settings_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_public_settings();
CREATE TRIGGER integration_settings_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON integration_settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_public_settings();

-- Down Migration

DROP TRIGGER integration_settings_notice ON integration_settings;
DROP TRIGGER site_settings_notice ON site_settings;
DROP FUNCTION notify_public_settings();
