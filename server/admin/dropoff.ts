import type pg from 'pg';
import { diagnosticScreens } from '#machines/content/index.js';
import { firstTimedIndex } from '#machines/diagnostic/diagnostic.screens.js';
import type { AssessmentFlowEvent } from '#machines/protocol/assessment-flow.js';
import type { DiagnosticEvent } from '#machines/protocol/diagnostic.js';
import type { OverviewDropoff } from '#machines/protocol/admin/dropoff.js';
import type { LeadScopeQuery } from '#machines/protocol/admin/scope.js';
import { bind, createdIn, overviewScope, type LeadScope } from '#core/leads/lead-scope.js';

/*
 * Drop-off per screen, from flow_events. Both queries take the flows started on the scope's days
 * (as the funnel takes the leads captured on them), test flows left out unless the scope includes
 * them, and aggregate in PostgreSQL: what comes back is one row per progress count or per flow
 * shape, whatever the number of flows. Each flow's events are read by a lateral look-up on
 * (flow_id, seq), so a period reads its own flows' events, never a scan of every event.
 */

/** The flows of `machine` started in the scope, as conditions on flows aliased `alias`. */
function flowCohort(scope: LeadScope, machine: string, params: unknown[], alias: string): string {
  const conditions = [`${alias}.machine = ${bind(params, machine)}`, ...createdIn(scope, `${alias}.created_at`, params)];
  if (!scope.includeTest) conditions.push(`NOT ${alias}.testing`);
  return conditions.join(' AND ');
}

/**
 * The diagnostic's steps in order: its screens by id, with the Timed Questions Ahead notice
 * before the first timed one. Positions are the current bank's (the one new visitors take).
 */
const DIAGNOSTIC_STEPS: readonly string[] = (() => {
  const ids = diagnosticScreens.map((screen) => screen.id);
  const interstitialAt = firstTimedIndex(diagnosticScreens);
  if (interstitialAt !== null) ids.splice(interstitialAt, 0, 'interstitial');
  return ids;
})();

/** Where a diagnostic stands once every screen is answered (graded on its own, or handed to the assessment). */
const DIAGNOSTIC_FINISHED = ['grading', 'graded', 'done'];

/**
 * The events that record the answer on show and move to the next screen: the machine never goes
 * back, so a flow's step is the number of these it applied (plus START_TIMED, which leaves the
 * notice). A vignette option with a follow-up waits for its confidence (state_after
 * vignette.confidence), and a screen's timer (xstate.after.screenTimeout...) records the timeout
 * answer. Refused events are never stored, so each of these moved the flow on.
 */
const DIAGNOSTIC_ANSWERS: Array<DiagnosticEvent['type']> = ['ANSWER_LIKERT', 'SELECT_OPTION', 'SELECT_CONFIDENCE', 'CONFIRM_RANKING'];

/**
 * The assessment flow's screens in the visitor's order, the branches after the results one after
 * the other; a top-level compound state stands for its children, the booking steps are told apart.
 * completed_results is left out: it shows results again after an end or to a returning visitor.
 */
const ASSESSMENT_STEPS = [
  'capture',
  'intro',
  'mirror',
  'diagnostic',
  'survey',
  'email_capture',
  'processing',
  'gaming_detected',
  'results',
  'yes_flow',
  'payment',
  'payment_success.confirmed',
  'payment_success.booking_opened',
  'payment_success.booked',
  'maybe_flow',
  'homework_processing.sending',
  'homework_processing.sent',
  'no_flow.offered',
  'no_flow.joined',
];

/** Where a journey is over (the snapshot corpus's ends): a flow that got there has not dropped off. */
const ASSESSMENT_ENDS = new Set(['payment_success.booked', 'homework_processing.sent', 'no_flow.joined']);

/**
 * A flow's first state is in no event's state_after; for the states a flow can open at, the event
 * that leaves it is taken there and nowhere else, so applying it shows the flow was there.
 */
const OPENING_STATE_OF: Partial<Record<AssessmentFlowEvent['type'], string>> = {
  MIRROR_COMPLETED: 'mirror',
  DIAGNOSTIC_COMPLETED: 'diagnostic',
  SURVEY_SUBMITTED: 'survey',
};

interface Progress {
  finished: boolean;
  passed: number;
  flows: number;
}

/** The diagnostic flows grouped by how many steps they passed and whether they finished. */
async function diagnosticProgress(db: pg.Pool, scope: LeadScope): Promise<Progress[]> {
  const params: unknown[] = [DIAGNOSTIC_FINISHED, DIAGNOSTIC_ANSWERS];
  const { rows } = await db.query<Progress>(
    `WITH progress AS (
       SELECT f.state = ANY($1::text[]) AS finished, p.passed
       FROM flows f
       CROSS JOIN LATERAL (
         SELECT count(*) FILTER (WHERE (e.type = ANY($2::text[]) AND e.state_after <> 'vignette.confidence')
                                    OR starts_with(e.type, 'xstate.after.screenTimeout.')
                                    OR e.type = 'START_TIMED') AS passed
         FROM flow_events e WHERE e.flow_id = f.id
       ) p
       WHERE ${flowCohort(scope, 'diagnostic', params, 'f')}
     )
     SELECT finished, passed::int, count(*)::int AS flows FROM progress GROUP BY finished, passed`,
    params,
  );
  return rows;
}

/** Step j is reached by every flow that passed j steps or finished; an unfinished flow stopped at the step it is on. */
function diagnosticSteps(progress: Progress[]): OverviewDropoff['diagnostic'] {
  const last = DIAGNOSTIC_STEPS.length - 1;
  const sum = (keep: (group: Progress) => boolean) => progress.filter(keep).reduce((total, group) => total + group.flows, 0);
  return {
    started: sum(() => true),
    steps: DIAGNOSTIC_STEPS.map((step, index) => ({
      step,
      reached: sum((group) => group.finished || group.passed >= index),
      stopped: sum((group) => !group.finished && Math.min(group.passed, last) === index),
      end: false,
    })),
  };
}

/** A flow's shape: the steps it reached (bit i for ASSESSMENT_STEPS[i]) and the one it stopped at, with how many flows have it. */
interface Shape {
  total: boolean;
  reached: number | null;
  last: number | null;
  flows: number;
  captured: number;
}

/**
 * Each assessment step with the flows that reached it (once each, however often they came back)
 * and those whose last step it is. Every event's state_after says where the flow went, the event
 * itself where it was when only one state takes it, and the flow's state where it is now; a state
 * counts for the step named by its path or by its top-level state. Version 1 named the booking
 * page opened payment_success.booked: a flow is booked only from its first SESSION_BOOKED on.
 *
 * Each flow's events are aggregated on their own (decision 0043): its steps become a bit set and
 * its last step the one of its latest position (event i's state_after at 2i, the state it left at
 * 2i - 1, the flow's state after every event), then flows are counted per shape; the few shapes
 * are summed per step here. At 100,000 leads (650,000 events) this is about 1 s where a row per
 * visited step took 2 to 4 s.
 */
async function assessmentSteps(db: pg.Pool, scope: LeadScope): Promise<OverviewDropoff['assessment']> {
  const opening = Object.entries(OPENING_STATE_OF);
  const params: unknown[] = [opening.map(([type]) => type), opening.map(([, state]) => state), ASSESSMENT_STEPS];
  const stepOf = (state: string) =>
    `(coalesce(array_position($3::text[], ${state}), array_position($3::text[], split_part(${state}, '.', 1))) - 1)`;
  const { rows } = await db.query<Shape>(
    `WITH booked AS (
       SELECT flow_id, min(seq) AS seq FROM flow_events WHERE type = 'SESSION_BOOKED' GROUP BY flow_id
     ), per_flow AS (
       SELECT f.lead_id, f.state, p.saved, p.reached, p.last
       FROM flows f
       LEFT JOIN booked b ON b.flow_id = f.id
       CROSS JOIN LATERAL (
         SELECT bool_or(e.type = 'LEAD_SAVED') AS saved,
                bit_or(coalesce(1 << x.went, 0) | coalesce(1 << x.left, 0)) AS reached,
                max(greatest(e.seq * 64::bigint + x.went, (e.seq * 2 - 1) * 32::bigint + x.left)) % 32 AS last
         FROM flow_events e
         CROSS JOIN LATERAL (
           SELECT ${stepOf('went.state')} AS went, ${stepOf('($2::text[])[array_position($1::text[], e.type)]')} AS left
           FROM (SELECT CASE WHEN e.state_after = 'payment_success.booked' AND (b.seq IS NULL OR b.seq > e.seq)
                             THEN 'payment_success.booking_opened' ELSE e.state_after END AS state) AS went
         ) x
         WHERE e.flow_id = f.id
       ) p
       WHERE ${flowCohort(scope, 'assessmentFlow', params, 'f')}
     ), shaped AS (
       SELECT p.lead_id, p.saved, coalesce(p.reached, 0) | coalesce(1 << now.step, 0) AS reached, coalesce(now.step, p.last) AS last
       FROM per_flow p CROSS JOIN LATERAL (SELECT ${stepOf('p.state')} AS step) AS now
     )
     SELECT grouping(reached, last) <> 0 AS total, reached, last::int,
            count(*) FILTER (WHERE last IS NOT NULL)::int AS flows,
            count(DISTINCT lead_id) FILTER (WHERE saved)::int AS captured
     FROM shaped GROUP BY GROUPING SETS ((reached, last), ())`,
    params,
  );
  const shapes = rows.filter((row) => !row.total && row.last !== null);
  const sum = (keep: (shape: Shape) => boolean) => shapes.filter(keep).reduce((total, shape) => total + shape.flows, 0);
  return {
    started: sum(() => true),
    captured: rows.find((row) => row.total)?.captured ?? 0,
    steps: ASSESSMENT_STEPS.map((step, index) => {
      const end = ASSESSMENT_ENDS.has(step);
      return {
        step,
        reached: sum((shape) => ((shape.reached ?? 0) & (1 << index)) !== 0),
        stopped: end ? 0 : sum((shape) => shape.last === index),
        end,
      };
    }),
  };
}

export async function fetchOverviewDropoff(db: pg.Pool, query: LeadScopeQuery): Promise<OverviewDropoff> {
  const scope = await overviewScope(db, query);
  const [progress, assessment] = await Promise.all([diagnosticProgress(db, scope), assessmentSteps(db, scope)]);
  return {
    period: query.period,
    timeZone: query.tz,
    includeTest: query.includeTest,
    from: scope.days.from,
    to: scope.days.to,
    diagnostic: diagnosticSteps(progress),
    assessment,
  };
}
