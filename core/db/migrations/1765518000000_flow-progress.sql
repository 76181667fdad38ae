-- Up Migration

-- Each flow's progress kept on its row as events are applied (decision 0055,
-- core/flows/flow-progress.ts): the engine writes these in the statement that stores each event,
-- so lead_facts' "diagnostic / survey done" and drop-off per step read flows rows, not every
-- flow's events.
ALTER TABLE flows
  ADD COLUMN diagnostic_done boolean NOT NULL DEFAULT false,
  ADD COLUMN survey_done     boolean NOT NULL DEFAULT false,
  ADD COLUMN lead_saved      boolean NOT NULL DEFAULT false,
  ADD COLUMN session_booked  boolean NOT NULL DEFAULT false,
  ADD COLUMN steps_reached   integer NOT NULL DEFAULT 0,
  ADD COLUMN last_step       smallint,
  ADD COLUMN steps_passed    integer NOT NULL DEFAULT 0;

-- The backfill: the same rules over the events already stored (what drop-off and lead_facts
-- computed on every read until now). The step lists are flow-progress.ts's as of this migration.
WITH steps AS (
  SELECT ARRAY['capture', 'intro', 'mirror', 'diagnostic', 'survey', 'email_capture', 'processing', 'gaming_detected',
               'results', 'yes_flow', 'payment', 'payment_success.confirmed', 'payment_success.booking_opened',
               'payment_success.booked', 'maybe_flow', 'homework_processing.sending', 'homework_processing.sent',
               'no_flow.offered', 'no_flow.joined'] AS list
), booked AS (
  SELECT flow_id, min(seq) AS seq FROM flow_events WHERE type = 'SESSION_BOOKED' GROUP BY flow_id
), per_event AS (
  SELECT e.flow_id, e.seq, e.type, e.state_after, f.machine,
         (e.type = 'GRADED' AND (e.payload->'result'->>'gamingDetected') = 'true') AS rushed,
         CASE WHEN e.state_after = 'payment_success.booked' AND (b.seq IS NULL OR b.seq > e.seq)
              THEN 'payment_success.booking_opened' ELSE e.state_after END AS went_to,
         CASE e.type WHEN 'MIRROR_COMPLETED' THEN 'mirror' WHEN 'DIAGNOSTIC_COMPLETED' THEN 'diagnostic'
                     WHEN 'SURVEY_SUBMITTED' THEN 'survey' END AS left_from
  FROM flow_events e JOIN flows f ON f.id = e.flow_id LEFT JOIN booked b ON b.flow_id = e.flow_id
), stepped AS (
  SELECT p.*,
         coalesce(array_position(s.list, p.went_to), array_position(s.list, split_part(p.went_to, '.', 1))) - 1 AS went,
         coalesce(array_position(s.list, p.left_from), array_position(s.list, split_part(p.left_from, '.', 1))) - 1 AS left_step
  FROM per_event p CROSS JOIN steps s
), last_rushed AS (
  SELECT flow_id, max(seq) AS seq FROM stepped WHERE rushed GROUP BY flow_id
), per_flow AS (
  SELECT s.flow_id,
         bool_or(s.type = 'DIAGNOSTIC_COMPLETED' AND (r.seq IS NULL OR r.seq < s.seq)) AS diagnostic_done,
         bool_or(s.type = 'SURVEY_SUBMITTED' AND (r.seq IS NULL OR r.seq < s.seq)) AS survey_done,
         bool_or(s.type = 'LEAD_SAVED') AS lead_saved,
         bool_or(s.type = 'SESSION_BOOKED') AS session_booked,
         CASE WHEN min(s.machine) = 'assessmentFlow'
              THEN bit_or(coalesce(1 << s.went, 0) | coalesce(1 << s.left_step, 0)) ELSE 0 END AS steps_reached,
         CASE WHEN min(s.machine) = 'assessmentFlow'
              THEN max(greatest(s.seq * 64::bigint + s.went, (s.seq * 2 - 1) * 32::bigint + s.left_step)) % 32 END AS last_step,
         CASE WHEN min(s.machine) = 'diagnostic'
              THEN count(*) FILTER (WHERE (s.type IN ('ANSWER_LIKERT', 'SELECT_OPTION', 'SELECT_CONFIDENCE', 'CONFIRM_RANKING')
                                           AND s.state_after <> 'vignette.confidence')
                                          OR starts_with(s.type, 'xstate.after.screenTimeout.')
                                          OR s.type = 'START_TIMED')
              ELSE 0 END AS steps_passed
  FROM stepped s LEFT JOIN last_rushed r ON r.flow_id = s.flow_id
  GROUP BY s.flow_id
)
UPDATE flows f
SET diagnostic_done = p.diagnostic_done, survey_done = p.survey_done, lead_saved = p.lead_saved,
    session_booked = p.session_booked, steps_reached = p.steps_reached, last_step = p.last_step, steps_passed = p.steps_passed
FROM per_flow p WHERE p.flow_id = f.id;

-- A lead's "diagnostic / survey done" from its flows' rows (lead_facts), and drop-off's cohort with
-- what it counts: index-only scans. Both widen an index every event's update already writes
-- (flows' updates change indexed columns, so none is a HOT update), so the engine's write gains
-- bytes, not an index.
DROP INDEX flows_lead_flow_idx;
CREATE INDEX flows_lead_flow_idx ON flows (lead_id, id) INCLUDE (diagnostic_done, survey_done) WHERE lead_id IS NOT NULL;
DROP INDEX flows_machine_created_at_idx;
CREATE INDEX flows_machine_created_at_idx ON flows (machine, created_at)
  INCLUDE (testing, state, lead_id, lead_saved, steps_reached, last_step, steps_passed);

-- lead_facts no longer reads these events.
DROP INDEX flow_events_done_idx;
DROP INDEX flow_events_rushed_idx;

-- Down Migration

CREATE INDEX flow_events_rushed_idx ON flow_events (flow_id, seq)
  WHERE type = 'GRADED' AND (payload->'result'->>'gamingDetected') = 'true';
CREATE INDEX flow_events_done_idx ON flow_events (flow_id, seq) INCLUDE (type) WHERE type IN ('DIAGNOSTIC_COMPLETED', 'SURVEY_SUBMITTED');
DROP INDEX flows_machine_created_at_idx;
CREATE INDEX flows_machine_created_at_idx ON flows (machine, created_at);
DROP INDEX flows_lead_flow_idx;
CREATE INDEX flows_lead_flow_idx ON flows (lead_id, id) WHERE lead_id IS NOT NULL;
ALTER TABLE flows
  DROP COLUMN diagnostic_done, DROP COLUMN survey_done, DROP COLUMN lead_saved, DROP COLUMN session_booked,
  DROP COLUMN steps_reached, DROP COLUMN last_step, DROP COLUMN steps_passed;
