-- Up Migration

-- PostgreSQL compresses a value of more than about 2 KB before it stores it: a flow's snapshot (about
-- 6 KB of JSON), its jobs' payloads, a result, a diagnostic's answers, an email's body. With lz4 in
-- place of the default pglz, the statements that write them on a graded flow's path spend about a
-- tenth less time in PostgreSQL (decision 0062), and reading them back is faster too. Every column
-- that can hold such a value uses it; a column added later names lz4 itself. A PostgreSQL built
-- without lz4 (the embedded one `npm start` falls back to) refuses the setting: it keeps pglz, and
-- the migration still counts as applied.
DO $$
DECLARE
  col record;
BEGIN
  FOR col IN
    SELECT c.relname AS table_name, a.attname AS column_name
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
    WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attstorage <> 'p' AND c.relname <> 'pgmigrations'
    ORDER BY 1, 2
  LOOP
    EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET COMPRESSION lz4', col.table_name, col.column_name);
  END LOOP;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'this PostgreSQL has no lz4: large values stay compressed with pglz';
END $$;

-- Down Migration

DO $$
DECLARE
  col record;
BEGIN
  FOR col IN
    SELECT c.relname AS table_name, a.attname AS column_name
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
    WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attcompression = 'l'
  LOOP
    EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET COMPRESSION default', col.table_name, col.column_name);
  END LOOP;
END $$;
