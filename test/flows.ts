import { initialTransition, transition, type AnyStateMachine } from 'xstate';
import type pg from 'pg';
import { flowMachineVersions } from '#machines/flow-versions.js';
import { flowMachines } from '#machines/index.js';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { Tier } from '#machines/protocol/common.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';
import { insertJob } from '#core/queues/outbox.js';
import { steadyAnswers, SURVEYS } from './journey.js';
import { seedVisitor } from './visitor.js';

/**
 * Stores a flow already moved through `events` by the shared machine (effects not run), for tests
 * that start in the middle of a journey. Returns the flow id.
 */
export async function seedFlow(
  pool: pg.Pool,
  machineName: FlowMachineName,
  events: Array<{ type: string; [key: string]: unknown }>,
  options: { input?: unknown; leadId?: string | null; visitorId?: string | null } = {},
): Promise<string> {
  const machine = flowMachines[machineName] as AnyStateMachine;
  let [snapshot] = initialTransition(machine, options.input ?? {});
  for (const event of events) [snapshot] = transition(machine, snapshot, event as never);
  const inserted = await pool.query<{ id: string }>(
    `INSERT INTO flows (machine, lead_id, state, snapshot, version, visitor_id, machine_version)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      machineName,
      options.leadId ?? null,
      statePath(snapshot.value),
      machine.getPersistedSnapshot(snapshot),
      events.length,
      options.visitorId ?? null,
      // written by this build's machine, so stamped with its version
      flowMachineVersions[machineName].current,
    ],
  );
  return inserted.rows[0]!.id;
}

/** The events that take an assessment flow from the capture step to a submitted survey, waiting for its grade. */
export function surveyedEvents(lead: { name: string; email: string; leadId: string }): Array<{ type: string; [key: string]: unknown }> {
  return [
    { type: 'CAPTURE_SUBMIT', name: lead.name, email: lead.email },
    { type: 'LEAD_SAVED', leadId: lead.leadId },
    { type: 'START_DIAGNOSTIC' },
    { type: 'DIAGNOSTIC_COMPLETED', answers: { b1: { type: 'likert', value: 4, responseTime: 4000, timedOut: false } } },
    {
      type: 'SURVEY_SUBMITTED',
      answers: {
        q1_investment: 'ready_now',
        q2_time: 'start_immediately',
        q3_urgency: 'critical',
        q4_mindset: 'challenge',
        q5_success: 'Lead better.',
      },
    },
  ];
}

/**
 * A lead and an assessment flow standing at `tier`'s results screen (graded, results shown), or
 * moved on from there by `then`, owned by a visitor of its own (or `visitor`): act on it as them
 * with injectAs(app, { visitorCookie }).
 */
export async function seedResultsFlow(
  pool: pg.Pool,
  tier: Tier,
  email = `lead-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
  visitor?: { visitorId: string; cookie: string },
  then: Array<{ type: string; [key: string]: unknown }> = [],
) {
  const { visitorId, cookie: visitorCookie } = visitor ?? (await seedVisitor(pool));
  const lead = await createOrUpdateLead(pool, { email, name: 'Test Lead' });
  const flowId = await seedFlow(
    pool,
    'assessmentFlow',
    [...surveyedEvents({ name: 'Test Lead', email, leadId: lead.leadId }), { type: 'GRADED', result: resultFor(tier) }, ...then],
    { leadId: lead.leadId, visitorId },
  );
  return { flowId, leadId: lead.leadId, email, visitorId, visitorCookie };
}

/**
 * A lead's assessment flow at the survey's end with the grading job the survey writes, answered to
 * grade to `tier` (a new lead's, or the lead of `email` retaking it): a worker on the grading queue grades it as in production (stores the result and
 * its diagnostic, applies GRADED, which writes the results email job). Owned by a visitor of its own.
 */
export async function flowAwaitingGrading(
  pool: pg.Pool,
  tier: Tier,
  name = 'Test Lead',
  email = `graded-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
) {
  const { visitorId, cookie: visitorCookie } = await seedVisitor(pool);
  const lead = await createOrUpdateLead(pool, { email, name });
  const flowId = await seedFlow(pool, 'assessmentFlow', surveyedEvents({ name, email, leadId: lead.leadId }), {
    leadId: lead.leadId,
    visitorId,
  });
  const request = { leadId: lead.leadId, assessment: steadyAnswers(), survey: SURVEYS[tier], mirrorChat: [], diagnosticId: null };
  await insertJob(pool, { queue: 'grading', name: 'lead-assessment', payload: { flowId, request }, flowId, leadId: lead.leadId });
  return { flowId, leadId: lead.leadId, email, visitorId, visitorCookie };
}
