import { sign } from '@fastify/cookie';
import type pg from 'pg';
import { initialTransition, transition } from 'xstate';
import { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { flowMachineVersions } from '#machines/flow-versions.js';
import { loadSigningKey } from '#server/visitors/visitor-cookie.js';
import { steadyAnswers } from '#test/journey.js';

const LEAD_PLACEHOLDER = '00000000-0000-4000-8000-00000000bead';
const EMAIL_PLACEHOLDER = 'placeholder@bench.invalid';
const BATCH = 500;

/** A persisted assessment flow standing at the survey, with placeholders for its lead. */
function surveySnapshotTemplate(): string {
  let [snapshot] = initialTransition(assessmentFlowMachine, {});
  for (const event of [
    { type: 'CAPTURE_SUBMIT', name: 'Bench Lead', email: EMAIL_PLACEHOLDER },
    { type: 'LEAD_SAVED', leadId: LEAD_PLACEHOLDER },
    { type: 'START_DIAGNOSTIC' },
    { type: 'DIAGNOSTIC_COMPLETED', answers: steadyAnswers() },
  ] as const) {
    [snapshot] = transition(assessmentFlowMachine, snapshot, event as never);
  }
  if (snapshot.value !== 'survey') throw new Error(`template flow is at ${JSON.stringify(snapshot.value)}, not the survey`);
  return JSON.stringify(assessmentFlowMachine.getPersistedSnapshot(snapshot));
}

/** A seeded flow and the visitor cookie of the browser that owns it. */
export interface SeededFlow {
  flowId: string;
  visitorCookie: string;
}

/**
 * `count` leads, each with an assessment flow at the survey (as if the diagnostic was just done),
 * each owned by a visitor of its own, as `count` real browsers would be.
 */
export async function seedSurveyFlows(pool: pg.Pool, count: number, runId: string): Promise<SeededFlow[]> {
  const template = surveySnapshotTemplate();
  const key = await loadSigningKey(pool);
  const seeded: SeededFlow[] = [];
  for (let from = 0; from < count; from += BATCH) {
    const size = Math.min(BATCH, count - from);
    const leads = await pool.query<{ lead_id: string; email: string }>(
      `INSERT INTO leads (email, name) SELECT 'bench-' || $1 || '-' || i || '@example.com', 'Bench Lead'
       FROM generate_series($2::int, $3::int) AS i RETURNING lead_id, email`,
      [runId, from, from + size - 1],
    );
    const visitors = await pool.query<{ id: string }>(
      'INSERT INTO visitors (id) SELECT gen_random_uuid() FROM generate_series(1, $1::int) RETURNING id',
      [size],
    );
    const rows = leads.rows.map((lead, i) => ({
      lead_id: lead.lead_id,
      visitor_id: visitors.rows[i]!.id,
      snapshot: JSON.parse(template.replaceAll(LEAD_PLACEHOLDER, lead.lead_id).replaceAll(EMAIL_PLACEHOLDER, lead.email)) as unknown,
    }));
    const flows = await pool.query<{ id: string; visitor_id: string }>(
      `INSERT INTO flows (machine, lead_id, visitor_id, state, snapshot, version, machine_version)
       SELECT 'assessmentFlow', x.lead_id, x.visitor_id, 'survey', x.snapshot, 4, $2
       FROM jsonb_to_recordset($1) AS x(lead_id uuid, visitor_id uuid, snapshot jsonb)
       RETURNING id, visitor_id`,
      [JSON.stringify(rows), flowMachineVersions.assessmentFlow.current],
    );
    seeded.push(...flows.rows.map((row) => ({ flowId: row.id, visitorCookie: sign(row.visitor_id, key) })));
  }
  return seeded;
}
