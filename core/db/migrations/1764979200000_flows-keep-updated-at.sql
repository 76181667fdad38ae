-- Up Migration
-- A flow's updated_at says when its visitor last did something. Moving stored snapshots up to a new
-- machine version at start (core/flows/machine-versions.ts) is not that, so a transaction that sets
-- hf.keep_updated_at to 'on' (SET LOCAL) rewrites flows without touching it, and without the table
-- lock that disabling the trigger would take.
DROP TRIGGER flows_updated_at ON flows;
CREATE TRIGGER flows_updated_at BEFORE UPDATE ON flows FOR EACH ROW
  WHEN (coalesce(current_setting('hf.keep_updated_at', true), '') <> 'on')
  EXECUTE FUNCTION set_updated_at();

-- Down Migration
DROP TRIGGER flows_updated_at ON flows;
CREATE TRIGGER flows_updated_at BEFORE UPDATE ON flows FOR EACH ROW EXECUTE FUNCTION set_updated_at();
