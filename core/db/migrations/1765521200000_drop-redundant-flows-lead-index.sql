-- Up Migration

-- flows_lead_flow_idx (lead_id, id) WHERE lead_id IS NOT NULL answers every look-up by a lead (an
-- equality implies the lead is not null), the leads' cascading deletes included. The plain index on
-- lead_id beside it only cost a write at every flow's insert and update (a flow's update is never
-- HOT: its state is indexed), twice per graded flow.
DROP INDEX flows_lead_id_idx;

-- Down Migration

CREATE INDEX flows_lead_id_idx ON flows (lead_id);
