-- Up Migration

-- The admin at 100,000 leads (decision 0041, scripts/bench/admin-scale.ts). lead_facts
-- (core/leads/lead-facts.ts) aggregates each of its parts per lead; these indexes hold what each
-- part reads, in lead order, so a part is an index-only scan (one lead's, or every lead's).

-- The latest outcome (tier, archetype, scores) and the attempts.
CREATE INDEX assessment_results_outcome_idx ON assessment_results (lead_id, created_at DESC, id DESC)
  INCLUDE (tier, archetype, composite_score, total_score, fallback) WHERE NOT gaming_detected;
CREATE INDEX assessment_results_attempts_idx ON assessment_results (lead_id) INCLUDE (gaming_detected) WHERE application_id IS NULL;
CREATE INDEX assessment_results_rushed_idx ON assessment_results (diagnostic_id) WHERE gaming_detected;

-- A diagnostic done: the lead's stored diagnostics, and its flows' DIAGNOSTIC_COMPLETED and
-- SURVEY_SUBMITTED events unless a later GRADED found them rushed.
CREATE INDEX diagnostic_results_lead_diagnostic_idx ON diagnostic_results (lead_id, diagnostic_id);
CREATE INDEX flows_lead_flow_idx ON flows (lead_id, id) WHERE lead_id IS NOT NULL;
CREATE INDEX flow_events_done_idx ON flow_events (flow_id, seq) INCLUDE (type) WHERE type IN ('DIAGNOSTIC_COMPLETED', 'SURVEY_SUBMITTED');
CREATE INDEX flow_events_rushed_idx ON flow_events (flow_id, seq)
  WHERE type = 'GRADED' AND (payload->'result'->>'gamingDetected') = 'true';

-- The deposit's booking, as the scheduling provider last reported it.
CREATE INDEX flow_events_session_idx ON flow_events (flow_id, seq DESC) WHERE type IN ('SESSION_BOOKED', 'SESSION_CANCELED');

-- The latest deposit that went through.
CREATE INDEX payment_tracking_went_through_idx ON payment_tracking (lead_id, created_at DESC, id DESC)
  WHERE status IN ('succeeded', 'refunded');

-- A Mirror session's flow (the Mirror list's test check, the lead page's sessions through its flows).
CREATE INDEX mirror_sessions_flow_id_idx ON mirror_sessions (flow_id) WHERE flow_id IS NOT NULL;

-- Drop-off's cohort: the flows of one machine started on the scope's days.
CREATE INDEX flows_machine_created_at_idx ON flows (machine, created_at);

-- Down Migration

DROP INDEX flows_machine_created_at_idx;
DROP INDEX mirror_sessions_flow_id_idx;
DROP INDEX payment_tracking_went_through_idx;
DROP INDEX flow_events_session_idx;
DROP INDEX flow_events_rushed_idx;
DROP INDEX flow_events_done_idx;
DROP INDEX flows_lead_flow_idx;
DROP INDEX diagnostic_results_lead_diagnostic_idx;
DROP INDEX assessment_results_rushed_idx;
DROP INDEX assessment_results_attempts_idx;
DROP INDEX assessment_results_outcome_idx;
