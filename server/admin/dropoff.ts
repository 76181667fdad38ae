import type pg from 'pg';
import { ASSESSMENT_ENDS, ASSESSMENT_STEPS, assessmentStepOf, DIAGNOSTIC_FINISHED, DIAGNOSTIC_STEPS } from '#core/flows/flow-progress.js';
import type { OverviewDropoff } from '#machines/protocol/admin/dropoff.js';
import type { LeadScopeQuery } from '#machines/protocol/admin/scope.js';
import { bind, createdIn, overviewScope, scopeAnswered, type LeadScope } from '#core/leads/lead-scope.js';

/*
 * Drop-off per screen. Both queries take the flows started on the scope's days (as the funnel
 * takes the leads captured on them), test flows left out unless the scope includes them, and count
 * them per shape from what each flows row keeps of its progress (core/flows/flow-progress.ts,
 * decision 0055): an index-only scan of the cohort, a row per shape back, summed per step here.
 */

/** The flows of `machine` started in the scope, as conditions on flows aliased `alias`. */
function flowCohort(scope: LeadScope, machine: string, params: unknown[], alias: string): string {
  const conditions = [`${alias}.machine = ${bind(params, machine)}`, ...createdIn(scope, `${alias}.created_at`, params)];
  if (!scope.includeTest) conditions.push(`NOT ${alias}.testing`);
  return conditions.join(' AND ');
}

interface Progress {
  state: string;
  passed: number;
  flows: number;
}

/** The diagnostic flows grouped by where they stand and how many steps they passed. */
async function diagnosticProgress(db: pg.Pool, scope: LeadScope): Promise<Progress[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<Progress>(
    `SELECT f.state, f.steps_passed AS passed, count(*)::int AS flows
     FROM flows f WHERE ${flowCohort(scope, 'diagnostic', params, 'f')}
     GROUP BY f.state, f.steps_passed`,
    params,
  );
  return rows;
}

/** Step j is reached by every flow that passed j steps or finished; an unfinished flow stopped at the step it is on. */
function diagnosticSteps(progress: Progress[]): OverviewDropoff['diagnostic'] {
  const last = DIAGNOSTIC_STEPS.length - 1;
  const finished = (group: Progress) => DIAGNOSTIC_FINISHED.has(group.state);
  const sum = (keep: (group: Progress) => boolean) => progress.filter(keep).reduce((total, group) => total + group.flows, 0);
  return {
    started: sum(() => true),
    steps: DIAGNOSTIC_STEPS.map((step, index) => ({
      step,
      reached: sum((group) => finished(group) || group.passed >= index),
      stopped: sum((group) => !finished(group) && Math.min(group.passed, last) === index),
      end: false,
    })),
  };
}

/** Assessment flows grouped by where they stand and what their events showed. */
interface ShapeRow {
  state: string;
  reached: number;
  last: number | null;
  flows: number;
}

/**
 * Each assessment step with the flows that reached it (once each, however often they came back)
 * and those whose last step it is. Every event's state_after says where the flow went, the event
 * itself where it was when only one state takes it (kept per flow as `steps_reached` and
 * `last_step`), and the flow's state where it is now: that state counts as reached and, when it
 * names a step, is the last one. A state counts for the step named by its path or by its top-level
 * state; version 1 named the booking page opened payment_success.booked, so an event's
 * payment_success.booked counts as booked only from the flow's first SESSION_BOOKED on. The leads
 * the cohort's flows captured are counted apart: a distinct count beside the shapes would sort
 * every flow.
 */
async function assessmentSteps(db: pg.Pool, scope: LeadScope): Promise<OverviewDropoff['assessment']> {
  const shapeParams: unknown[] = [];
  const capturedParams: unknown[] = [];
  const [{ rows }, captured] = await Promise.all([
    db.query<ShapeRow>(
      `SELECT f.state, f.steps_reached AS reached, f.last_step AS last, count(*)::int AS flows
       FROM flows f WHERE ${flowCohort(scope, 'assessmentFlow', shapeParams, 'f')}
       GROUP BY f.state, f.steps_reached, f.last_step`,
      shapeParams,
    ),
    db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT DISTINCT f.lead_id FROM flows f WHERE f.lead_saved AND f.lead_id IS NOT NULL AND ${flowCohort(scope, 'assessmentFlow', capturedParams, 'f')}
       ) captured`,
      capturedParams,
    ),
  ]);
  const shapes = rows.flatMap((row) => {
    const now = assessmentStepOf(row.state);
    const last = now ?? row.last;
    return last === null ? [] : [{ reached: row.reached | (now === null ? 0 : 1 << now), last, flows: row.flows }];
  });
  const sum = (keep: (shape: (typeof shapes)[number]) => boolean) => shapes.filter(keep).reduce((total, shape) => total + shape.flows, 0);
  return {
    started: sum(() => true),
    captured: captured.rows[0]!.n,
    steps: ASSESSMENT_STEPS.map((step, index) => {
      const end = ASSESSMENT_ENDS.has(step);
      return {
        step,
        reached: sum((shape) => (shape.reached & (1 << index)) !== 0),
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
    ...scopeAnswered(query, scope),
    diagnostic: diagnosticSteps(progress),
    assessment,
  };
}
