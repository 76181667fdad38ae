-- Up Migration

-- PostgreSQL compresses a value of more than about 2 KB before it stores it: a flow's snapshot (about
-- 6 KB of JSON), its jobs' payloads, a result, a diagnostic's answers, an email's body. With lz4 in
-- place of the default pglz, the statements that write them on a graded flow's path spend about a
-- tenth less time in PostgreSQL (decision 0062), and reading them back is faster too. Every column
-- that can hold such a value uses it; a column added later names lz4 itself. A PostgreSQL built
-- without lz4 (the embedded one `npm start` falls back to) refuses the setting: it keeps pglz, and
-- the migration still counts as applied.
DO $$
BEGIN
  EXECUTE (
    SELECT string_agg(format('ALTER TABLE %s ALTER COLUMN %I SET COMPRESSION lz4', a.attrelid::regclass, a.attname), '; ')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace AND c.relname <> 'pgmigrations'
      AND a.attnum > 0 AND NOT a.attisdropped AND a.attstorage <> 'p'
  );
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'this PostgreSQL has no lz4: large values stay compressed with pglz';
END $$;

-- Down Migration

DO $$
DECLARE
  back text := (
    SELECT string_agg(format('ALTER TABLE %s ALTER COLUMN %I SET COMPRESSION default', attrelid::regclass, attname), '; ')
    FROM pg_attribute
    WHERE attcompression = 'l'
      AND attrelid IN (SELECT oid FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace)
  );
BEGIN
  -- nothing to undo where the up step found no lz4
  IF back IS NOT NULL THEN
    EXECUTE back;
  END IF;
END $$;
