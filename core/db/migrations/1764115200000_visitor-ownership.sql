-- Up Migration

-- A visitor is one browser, known by the signed, httpOnly cookie the server issues the first time
-- that browser starts something. What a visitor created (flows, standalone diagnostics, Mirror
-- sessions) carries its id, and every public route that reads or changes one of those rows checks
-- it: a lead id or an email address is an identifier, never a credential. The row holds no
-- personal data; results_cleared_at is when the visitor last asked to forget their completed
-- assessment (a retake, or testing mode), so it is not offered again on the next open.
CREATE TABLE visitors (
  id                 uuid PRIMARY KEY,
  created_at         timestamptz NOT NULL DEFAULT now(),
  results_cleared_at timestamptz
);

ALTER TABLE flows ADD COLUMN visitor_id uuid REFERENCES visitors (id) ON DELETE SET NULL;
-- a visitor's own flows, newest first (resume, the stored result, the lead session)
CREATE INDEX flows_visitor_id_idx ON flows (visitor_id, machine, updated_at DESC) WHERE visitor_id IS NOT NULL;

ALTER TABLE diagnostics ADD COLUMN visitor_id uuid REFERENCES visitors (id) ON DELETE SET NULL;
CREATE INDEX diagnostics_visitor_id_idx ON diagnostics (visitor_id) WHERE visitor_id IS NOT NULL;

ALTER TABLE mirror_sessions ADD COLUMN visitor_id uuid REFERENCES visitors (id) ON DELETE SET NULL;

-- Secrets the server makes for itself on its first start and shares between its processes (the
-- visitor cookie's signing key). Whoever can read this table can read every lead already.
CREATE TABLE app_secrets (
  name       text PRIMARY KEY CHECK (name ~ '^[a-z_]{1,40}$'),
  value      text NOT NULL CHECK (length(value) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE app_secrets;
ALTER TABLE mirror_sessions DROP COLUMN visitor_id;
ALTER TABLE diagnostics DROP COLUMN visitor_id;
ALTER TABLE flows DROP COLUMN visitor_id;
DROP TABLE visitors;
