import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { recordVisitor } from '../visitors.js';
import { runEffects } from './effects.js';
import { FlowEngine } from './engine.js';
import type { FlowRow } from './flow-store.js';

// A database of its own: the job rows written here stay pending, and no other file's relay may take them.
let harness: TestApp;
let engine: FlowEngine;
beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  engine = new FlowEngine(harness.pool);
});
afterAll(() => harness.close());

async function visitor(): Promise<string> {
  const id = randomUUID();
  await recordVisitor(harness.pool, id);
  return id;
}

describe('the open attempt read with the locked flow', () => {
  it('is read afresh by the effects after a capture, which may have opened one', async () => {
    const email = `attempt-${randomUUID()}@example.com`;
    const owner = await visitor();
    const ownersFlow = await engine.start('assessmentFlow', {}, { visitorId: owner });
    await engine.apply(ownersFlow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Owner', email }, 'client', { visitorId: owner });
    const lead = await harness.pool.query<{ lead_id: string }>('SELECT lead_id FROM leads WHERE email = $1', [email]);
    const leadId = lead.rows[0]!.lead_id;

    // a stranger's flow, its attempt read as none when locked; then, in one action list, a capture
    // of the owner's address (an unconfirmed attempt, decision 0044) and a grading
    const stranger = await visitor();
    const strangersFlow = await engine.start('assessmentFlow', {}, { visitorId: stranger });
    await engine.transaction(async (tx) => {
      const row = await tx.client.query<FlowRow>('SELECT * FROM flows WHERE id = $1 FOR UPDATE', [strangersFlow.flowId]);
      const grading = { leadId, assessment: {}, survey: {}, mirrorChat: [], diagnosticId: null };
      await runEffects(tx, { ...row.rows[0]!, open_attempt: null }, [
        { type: 'createLead', params: { email, name: 'Stranger', source: 'direct', leadToken: null, testingMode: false } },
        { type: 'requestGrading', params: grading },
      ]);
    });

    const attempt = await harness.pool.query<{ id: string }>('SELECT id FROM lead_attempts WHERE flow_id = $1', [strangersFlow.flowId]);
    expect(attempt.rows).toHaveLength(1);
    // the grading is the attempt's, kept apart from the lead's results: not the lead's, as the stale read said
    const jobs = await harness.pool.query<{ payload: { attemptId?: string; request: { leadId: string | null } }; lead_id: string | null }>(
      "SELECT payload, lead_id FROM jobs WHERE flow_id = $1 AND queue = 'grading'",
      [strangersFlow.flowId],
    );
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]!.payload.attemptId).toBe(attempt.rows[0]!.id);
    expect(jobs.rows[0]!.payload.request.leadId).toBeNull();
    expect(jobs.rows[0]!.lead_id).toBeNull();
  });
});
