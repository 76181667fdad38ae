-- Up Migration

-- Visits to the public site, counted for the admin Overview's funnel. Private by construction: the
-- browser makes up a random id for the tab session (kept in sessionStorage, gone when the tab
-- closes) and sends it once with the landing path. No IP address, user agent, referrer, cookie or
-- query string is stored, so a row cannot be tied to a person or followed from one session to the
-- next. The primary key keeps one row per session per UTC day, so a repeated send counts once.
CREATE TABLE site_visits (
  visitor_id uuid NOT NULL,
  day        date NOT NULL,
  path       text NOT NULL CHECK (path ~ '^/[^?#]*$' AND length(path) <= 300),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (visitor_id, day)
);
-- the funnel counts the visits of a period
CREATE INDEX site_visits_created_at_idx ON site_visits (created_at);

-- Down Migration
DROP TABLE site_visits;
