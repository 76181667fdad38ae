-- Up Migration
-- The version of the flow machine that wrote each flow's snapshot (machines/flow-versions.ts).
-- Every flow stored before versions existed was written by version 1.
ALTER TABLE flows ADD COLUMN machine_version integer NOT NULL DEFAULT 1 CHECK (machine_version >= 1);

-- Down Migration
ALTER TABLE flows DROP COLUMN machine_version;
