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
 * them, and aggregate in PostgreSQL: what comes back is one row per step or per progress count,
 * whatever the number of flows.
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
       SELECT f.state = ANY($1::text[]) AS finished,
              count(e.id) FILTER (WHERE (e.type = ANY($2::text[]) AND e.state_after <> 'vignette.confidence')
                                     OR starts_with(e.type, 'xstate.after.screenTimeout.')
                                     OR e.type = 'START_TIMED') AS passed
       FROM flows f LEFT JOIN flow_events e ON e.flow_id = f.id
       WHERE ${flowCohort(scope, 'diagnostic', params, 'f')}
       GROUP BY f.id
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

/**
 * Each assessment step with the flows that reached it (once each, however often they came back)
 * and those whose last step it is. Every event's state_after says where the flow went, the event
 * itself where it was when only one state takes it, and the flow's state where it is now; a state
 * counts for the step named by its path or by its top-level state. Version 1 named the booking
 * page opened payment_success.booked: a flow is booked only from its first SESSION_BOOKED on.
 */
async function assessmentSteps(db: pg.Pool, scope: LeadScope): Promise<OverviewDropoff['assessment']> {
  const opening = Object.entries(OPENING_STATE_OF);
  const params: unknown[] = [opening.map(([type]) => type), opening.map(([, state]) => state), ASSESSMENT_STEPS];
  const { rows } = await db.query<{ step: string; started: number; captured: number; reached: number; stopped: number }>(
    `WITH cohort AS (
       SELECT f.id, f.state, f.lead_id FROM flows f WHERE ${flowCohort(scope, 'assessmentFlow', params, 'f')}
     ), events AS (
       SELECT e.flow_id, e.seq, e.type, e.state_after FROM cohort c JOIN flow_events e ON e.flow_id = c.id
     ), booked AS (
       SELECT flow_id, min(seq) AS seq FROM events WHERE type = 'SESSION_BOOKED' GROUP BY flow_id
     ), visited AS (
       SELECT e.flow_id, e.seq * 2 AS at,
              CASE WHEN e.state_after = 'payment_success.booked' AND (b.seq IS NULL OR b.seq > e.seq)
                   THEN 'payment_success.booking_opened' ELSE e.state_after END AS state
       FROM events e LEFT JOIN booked b USING (flow_id)
       UNION ALL
       SELECT flow_id, seq * 2 - 1, opening.state
       FROM events JOIN unnest($1::text[], $2::text[]) AS opening(type, state) USING (type)
       UNION ALL
       SELECT id, 2147483647, state FROM cohort
     ), screens AS (
       SELECT flow_id, step, max(at) AS at
       FROM (SELECT flow_id, at,
                    CASE WHEN state = ANY($3::text[]) THEN state
                         WHEN split_part(state, '.', 1) = ANY($3::text[]) THEN split_part(state, '.', 1) END AS step
             FROM visited) AS mapped
       WHERE step IS NOT NULL
       GROUP BY flow_id, step
     ), last AS (
       SELECT DISTINCT ON (flow_id) step FROM screens ORDER BY flow_id, at DESC
     ), reached AS (
       SELECT step, count(*) AS n FROM screens GROUP BY step
     ), stopped AS (
       SELECT step, count(*) AS n FROM last GROUP BY step
     )
     SELECT s.step, (SELECT count(*) FROM last)::int AS started,
            (SELECT count(DISTINCT lead_id) FROM cohort
             WHERE EXISTS (SELECT 1 FROM events e WHERE e.flow_id = cohort.id AND e.type = 'LEAD_SAVED'))::int AS captured,
            coalesce(r.n, 0)::int AS reached, coalesce(l.n, 0)::int AS stopped
     FROM unnest($3::text[]) WITH ORDINALITY AS s(step, n)
     LEFT JOIN reached r USING (step)
     LEFT JOIN stopped l USING (step)
     ORDER BY s.n`,
    params,
  );
  return {
    started: rows[0]?.started ?? 0,
    captured: rows[0]?.captured ?? 0,
    steps: rows.map(({ step, reached, stopped }) => {
      const end = ASSESSMENT_ENDS.has(step);
      return { step, reached, stopped: end ? 0 : stopped, end };
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
