-- Up Migration

-- A deposit flow's booking and whether its reminder to book went out, as PostgreSQL reads them from
-- the flow's snapshot each time it is written (decision 0058): lead_facts reads these two columns
-- instead of opening each deposit's snapshot (a compressed document of a few KB) on every read.
-- Generated, so every writer of a snapshot (the engine, the version upgrade, a seed) keeps them.
ALTER TABLE flows
  ADD COLUMN booking text GENERATED ALWAYS AS (snapshot->'context'->'completedPath'->>'booking') STORED,
  ADD COLUMN reminded_to_book boolean GENERATED ALWAYS AS (coalesce((snapshot->'context'->'followUps'->>'remindedToBook')::boolean, false)) STORED;

-- Down Migration

ALTER TABLE flows DROP COLUMN booking, DROP COLUMN reminded_to_book;
