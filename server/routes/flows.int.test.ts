import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { EXPECTED_VERSION_HEADER } from '#machines/protocol/api.js';
import { seedResultsFlow } from '#test/flows.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { injectAs, type InjectVisitor } from '#test/visitor.js';

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;
// one visitor's browser; a stranger is another
let browser: InjectVisitor;

beforeAll(async () => {
  harness = await buildTestApp();
  ({ app, pool } = harness);
  browser = injectAs(app);
});

afterAll(() => harness?.close());

async function start(body: Record<string, unknown> = {}) {
  const response = await browser({ method: 'POST', url: '/api/flows', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

function send(flowId: string, event: Record<string, unknown>, expectedVersion?: number) {
  return browser({ method: 'POST', url: `/api/flows/${flowId}/events`, payload: { event, expectedVersion } });
}

describe('flows over HTTP', () => {
  it('starts an assessment at capture; a capture saves the lead in the same transaction and moves on to the intro', async () => {
    const flow = await start();
    expect(flow).toMatchObject({ machine: 'assessmentFlow', version: 0 });
    expect(flow.state).toMatch(/^capture/);

    const moved = await send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email: 'ada@example.com' }, 0);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ version: 2, state: 'intro' });
    const leadId = moved.json().snapshot.context.session.leadId;
    const lead = await pool.query('SELECT email, name, source FROM leads WHERE lead_id = $1', [leadId]);
    expect(lead.rows).toEqual([{ email: 'ada@example.com', name: 'Ada Lovelace', source: 'website' }]);

    const read = await browser(`/api/flows/${flow.flowId}`);
    expect(read.json()).toEqual(moved.json());
    const events = await pool.query('SELECT seq, type, payload, origin, state_after FROM flow_events WHERE flow_id = $1 ORDER BY seq', [
      flow.flowId,
    ]);
    expect(events.rows).toEqual([
      {
        seq: 1,
        type: 'CAPTURE_SUBMIT',
        payload: { name: 'Ada Lovelace', email: 'ada@example.com' },
        origin: 'client',
        state_after: 'capture.saving',
      },
      { seq: 2, type: 'LEAD_SAVED', payload: { leadId }, origin: 'server', state_after: 'intro' },
    ]);
    const linked = await pool.query('SELECT lead_id FROM flows WHERE id = $1', [flow.flowId]);
    expect(linked.rows[0].lead_id).toBe(leadId);
  });

  it('answers 409 with the current flow for an event the state does not take, and stores nothing', async () => {
    const flow = await start();
    const refused = await send(flow.flowId, { type: 'START_DIAGNOSTIC' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ statusCode: 409, error: 'Conflict', flow: { flowId: flow.flowId, version: 0 } });
    expect(refused.json().message).toContain('START_DIAGNOSTIC is not allowed in capture');
    const events = await pool.query('SELECT 1 FROM flow_events WHERE flow_id = $1', [flow.flowId]);
    expect(events.rowCount).toBe(0);
  });

  it('answers 409 when the browser applied its event to an out-of-date version', async () => {
    const flow = await start();
    const stale = await send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'A', email: 'a@example.com' }, 3);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().flow.version).toBe(0);
  });

  it('an event sent again by a proxy after its server died (its expected version in the header) applies once: the replay is answered 409 with the flow', async () => {
    const flow = await start();
    const event = { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email: 'ada-replay@example.com' };
    const sendWithHeader = (headerVersion: string, bodyVersion?: number) =>
      browser({
        method: 'POST',
        url: `/api/flows/${flow.flowId}/events`,
        headers: { [EXPECTED_VERSION_HEADER]: headerVersion },
        payload: { event, expectedVersion: bodyVersion },
      });
    // the header alone is the expected version, as the body's is
    const applied = await sendWithHeader('0');
    expect(applied.statusCode, applied.body).toBe(200);
    const replay = await sendWithHeader('0', 0);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().flow).toMatchObject({ version: applied.json().version, state: applied.json().state });
    const captured = await pool.query("SELECT count(*)::int AS n FROM flow_events WHERE flow_id = $1 AND type = 'CAPTURE_SUBMIT'", [
      flow.flowId,
    ]);
    expect(captured.rows[0].n).toBe(1);
    // one that is no version, or says another than the body, is refused naming the field
    expect((await sendWithHeader('two')).json()).toMatchObject({
      statusCode: 400,
      fields: { [EXPECTED_VERSION_HEADER]: 'a whole number' },
    });
    expect((await sendWithHeader('2', 3)).json()).toMatchObject({
      statusCode: 400,
      fields: { expectedVersion: `equal to ${EXPECTED_VERSION_HEADER}` },
    });
  });

  it('rejects bad input with 400 naming the field, and unknown flows with 404', async () => {
    const flow = await start();
    const unknownType = await send(flow.flowId, { type: 'LAUNCH' });
    expect(unknownType.statusCode).toBe(400);
    expect(Object.keys(unknownType.json().fields)).toContain('event.type');
    const badStart = await browser({ method: 'POST', url: '/api/flows', payload: { mode: 'sideways' } });
    expect(badStart.statusCode).toBe(400);
    expect(badStart.json().fields).toHaveProperty('mode');
    expect((await browser('/api/flows/not-a-uuid')).statusCode).toBe(400);
    const missing = await browser('/api/flows/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('No flow with id 00000000-0000-4000-8000-000000000000');
  });

  it('a token link skips capture, and a single-use token works for only one of two racing starts', async () => {
    const token = randomBytes(16).toString('hex');
    await pool.query(
      "INSERT INTO lead_tokens (token, email, name, source, expires_at) VALUES ($1, 'grace@example.com', 'Grace Hopper', 'community', now() + interval '1 day')",
      [token],
    );
    const [a, b] = await Promise.all([start({ token }), start({ token })]);
    const states = [a.state, b.state].sort();
    expect(states[0]).toMatch(/^capture/);
    expect(states[1]).toMatch(/^diagnostic/);
    const valid = [a, b].find((flow) => flow.state.startsWith('diagnostic'));
    expect(valid.snapshot.context.session).toMatchObject({
      source: 'community',
      email: 'grace@example.com',
      name: 'Grace Hopper',
      leadToken: token,
    });

    const expired = randomBytes(16).toString('hex');
    await pool.query("INSERT INTO lead_tokens (token, expires_at, reusable) VALUES ($1, now() - interval '1 minute', true)", [expired]);
    expect((await start({ token: expired })).state).toMatch(/^capture/);
  });

  it("opens a returning visitor's new flow at completed_results with their own result and lead; Retake forgets it; nobody else sees it", async () => {
    const seeded = await seedResultsFlow(pool, 'homework');
    const returning = injectAs(app, { visitorCookie: seeded.visitorCookie });
    const open = async (as: InjectVisitor, body: Record<string, unknown> = {}) => {
      const response = await as({ method: 'POST', url: '/api/flows', payload: body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };

    const welcomed = await open(returning);
    expect(welcomed.state).toBe('completed_results');
    expect(welcomed.snapshot.context.result).toEqual(resultFor('homework'));
    expect(welcomed.snapshot.context.session).toMatchObject({ leadId: seeded.leadId, email: seeded.email, name: 'Test Lead' });
    expect((await pool.query('SELECT lead_id FROM flows WHERE id = $1', [welcomed.flowId])).rows[0].lead_id).toBe(seeded.leadId);
    // the next step continues on the new flow, which now carries the result itself
    const next = await returning({ method: 'POST', url: `/api/flows/${welcomed.flowId}/events`, payload: { event: { type: 'CONTINUE' } } });
    expect(next.json().state).toBe('maybe_flow');

    // another visitor, even one who knows the lead's email, starts afresh; so does a Mirror or token open
    const stranger = injectAs(app, { remoteAddress: '203.0.113.7' });
    expect(
      (
        await open(stranger, {
          knownSession: { leadId: seeded.leadId, email: seeded.email, name: 'Test Lead', source: 'direct', leadToken: null },
        })
      ).state,
    ).toMatch(/^capture/);
    expect((await open(returning, { mode: 'mirror' })).state).not.toBe('completed_results');

    // Retake Assessment: the intro on the same lead, and the result is no longer offered
    const again = await open(returning);
    expect(again.state).toBe('completed_results');
    const retake = await returning({ method: 'POST', url: `/api/flows/${again.flowId}/events`, payload: { event: { type: 'RETAKE' } } });
    expect(retake.json()).toMatchObject({ state: 'intro', snapshot: { context: { result: null, session: { leadId: seeded.leadId } } } });
    const cleared = await pool.query('SELECT results_cleared_at FROM visitors WHERE id = $1', [seeded.visitorId]);
    expect(cleared.rows[0].results_cleared_at).toBeInstanceOf(Date);
    expect((await open(returning)).state).toMatch(/^capture/);
  });

  it('shows a returning visitor who paid the deposit their results with the deposit paid; Continue goes back to the booking, not to a payment', async () => {
    const paid = [
      { type: 'CONTINUE' },
      { type: 'PAY_DEPOSIT' },
      { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_returning' },
      { type: 'BOOK_SESSION' },
    ];
    const seeded = await seedResultsFlow(pool, 'book_call', undefined, undefined, paid);
    const returning = injectAs(app, { visitorCookie: seeded.visitorCookie });
    const welcomed = (await returning({ method: 'POST', url: '/api/flows', payload: {} })).json();
    expect(welcomed).toMatchObject({
      state: 'completed_results',
      snapshot: { context: { result: resultFor('book_call'), completedPath: { kind: 'deposit_paid', booking: 'opened' } } },
    });
    const next = await returning({ method: 'POST', url: `/api/flows/${welcomed.flowId}/events`, payload: { event: { type: 'CONTINUE' } } });
    expect(next.json().state).toBe('payment_success.booking_opened');
    expect((await pool.query("SELECT count(*) FROM jobs WHERE flow_id = $1 AND queue = 'payments'", [welcomed.flowId])).rows[0].count).toBe(
      '0',
    );
  });

  it('testing mode never offers the completed assessment, and forgets it', async () => {
    const seeded = await seedResultsFlow(pool, 'book_call');
    const returning = injectAs(app, { visitorCookie: seeded.visitorCookie });
    const testing = await returning({ method: 'POST', url: '/api/flows', payload: { testing: true } });
    expect(testing.json().state).toMatch(/^capture/);
    const cleared = await pool.query('SELECT results_cleared_at FROM visitors WHERE id = $1', [seeded.visitorId]);
    expect(cleared.rows[0].results_cleared_at).toBeInstanceOf(Date);
    const after = await returning({ method: 'POST', url: '/api/flows', payload: {} });
    expect(after.json().state).toMatch(/^capture/);
  });

  it('serves the OpenAPI document with the flow routes', async () => {
    const document = (await browser('/api/docs/json')).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/flows', '/api/flows/{id}', '/api/flows/{id}/events']));
  });
});
