import { randomUUID } from 'node:crypto';
import { initialTransition, transition, type AnyStateMachine } from 'xstate';
import type pg from 'pg';
import { flowMachines } from '#machines/index.js';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { Tier } from '#machines/protocol/common.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';
import { storeProgressFromEvents } from './flow-progress.js';
import { seedResultsFlow, surveyedEvents } from './flows.js';

/**
 * For the admin leads tests: a graded lead (seedResultsFlow) with everything its page shows —
 * the flow's events (state_after from the shared machine), a result, diagnostic answers (one of
 * them to an item the bank no longer has), a survey (with a retired question), a saved Mirror
 * transcript, a succeeded deposit, an email, a failed job and a note.
 */
export async function seedGradedLead(pool: pg.Pool, tier: Tier, email?: string) {
  const seeded = await seedResultsFlow(pool, tier, email);
  const { flowId, leadId } = seeded;
  const result = {
    ...resultFor(tier),
    qualificationReasoning: ['Ready to invest now.', 'Critical urgency.'],
    scores: { LER: 81, DCR: 64, TBR: 72, VIS: 90 },
  };
  const events = [...surveyedEvents({ name: 'Test Lead', email: seeded.email, leadId }), { type: 'GRADED', result: resultFor(tier) }];
  const machine = flowMachines.assessmentFlow as AnyStateMachine;
  let [snapshot] = initialTransition(machine, {});
  let seq = 0;
  for (const { type, ...payload } of events) {
    [snapshot] = transition(machine, snapshot, { type, ...payload });
    seq += 1;
    await pool.query(
      `INSERT INTO flow_events (flow_id, seq, type, payload, origin, state_after, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(secs => $7))`,
      [flowId, seq, type, payload, type === 'GRADED' ? 'worker' : 'client', statePath(snapshot.value), 60 - seq],
    );
  }
  await storeProgressFromEvents(pool);
  // answers stored in another order than shown, with an item the bank no longer has
  const answers = [
    { item_id: 'vig_dc', type: 'vignette', value: 'dc_convene', confidence: 4, response_ms: 21000, timed_out: false },
    { item_id: 'b9_retired', type: 'likert', value: 2, confidence: null, response_ms: 3000, timed_out: false },
    {
      item_id: 'priority_ranking',
      type: 'ranking',
      value: ['vision', 'capability', 'results', 'stakeholder', 'process'],
      confidence: null,
      response_ms: 9000,
      timed_out: false,
    },
    { item_id: 'b1', type: 'likert', value: 4, confidence: null, response_ms: 4000, timed_out: false },
  ];
  const diagnostic = await pool.query<{ id: string }>(
    `INSERT INTO diagnostics (lead_id, flow_id, bank_version, status, completed_at, answers)
     VALUES ($1, $2, '2.0.0', 'completed', now(), $3) RETURNING id`,
    [leadId, flowId, JSON.stringify(answers)],
  );
  const diagnosticId = diagnostic.rows[0]!.id;
  await pool.query(
    `INSERT INTO assessment_results (lead_id, flow_id, diagnostic_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score,
                                     mirror_score, composite_score, result, bank_version, grading_version)
     VALUES ($1, $2, $3, $4, $4, $5, 78.5, 80, 90, 50, 78.5, $6, 'v1', 'g1')`,
    [leadId, flowId, diagnosticId, tier, result.archetype, result],
  );
  await pool.query(
    `INSERT INTO survey_responses (lead_id, flow_id, answers, survey_score)
     VALUES ($1, $2, '{"q5_success":"Lead better.","q0_budget":"plenty","q1_investment":"ready_now","q3_urgency":"critical"}', 90)`,
    [leadId, flowId],
  );
  const sessionId = randomUUID();
  await pool.query('INSERT INTO mirror_sessions (id, lead_id, flow_id, saved, turns, completed) VALUES ($1, $2, $3, true, 1, false)', [
    sessionId,
    leadId,
    flowId,
  ]);
  await pool.query(
    `INSERT INTO mirror_messages (session_id, role, content, turn) VALUES ($1, 'user', 'Whether to promote from within.', 1), ($1, 'mirror', 'What would it cost you to wait?', 1)`,
    [sessionId],
  );
  const payment = await pool.query<{ id: string }>(
    `INSERT INTO payment_tracking (payment_intent_id, lead_id, flow_id, purpose, amount_cents, status, test_mode)
     VALUES ($1, $2, $3, 'deposit', 25000, 'succeeded', true) RETURNING id`,
    [`pi_test_${randomUUID()}`, leadId, flowId],
  );
  const job = await pool.query<{ id: string }>(
    `INSERT INTO jobs (queue, name, lead_id, flow_id, status, attempts, last_error, finished_at)
     VALUES ('email', 'results', $1, $2, 'failed', 5, 'SMTP 554: mailbox unavailable', now()) RETURNING id`,
    [leadId, flowId],
  );
  await pool.query(
    `INSERT INTO email_outbox (lead_id, kind, to_address, subject, text_body, status, sent_at)
     VALUES ($1, 'free_resources', $2, 'Your leadership resources',
             E'Hi Test,\n\nAs promised, here are your free resources.\n\nDownload Report: https://coach.example.com/api/reports/link?token=x',
             'sent', now())`,
    [leadId, seeded.email],
  );
  await pool.query("INSERT INTO lead_notes (lead_id, body) VALUES ($1, 'Called, left a voicemail.')", [leadId]);
  await pool.query("INSERT INTO interactions (lead_id, type, content) VALUES ($1, 'website_visit', 'home')", [leadId]);
  await refreshAllLeadFacts(pool); // written past the owners, which keep each lead's summary
  return { ...seeded, diagnosticId, sessionId, paymentId: payment.rows[0]!.id, jobId: job.rows[0]!.id };
}
