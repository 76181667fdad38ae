import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { signedInAdmin } from '#test/admin-session.js';
import { seedResultsFlow } from '#test/flows.js';
import { bookingReferenceOf, inviteeCreated, postCalendlyEvent } from '#test/scheduling.js';
import { flowClient, promoteTimers } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { FlowEngine } from './engine.js';

/*
 * The follow-ups from end to end, on real PostgreSQL, Redis, HTTP and workers: the flow's own
 * timers (configured waits, never waited out: the delayed jobs are promoted), the reminders they
 * send once, the Needs attention list and a booking taking a lead off it.
 */

const KEY = `sched-${randomBytes(8).toString('hex')}`;
let harness: TestApp;
let pool: pg.Pool;

beforeAll(async () => {
  harness = await buildTestApp({
    ownDatabase: true,
    listen: true,
    env: { ASSESSMENT_REMINDER_HOURS: '1', BOOKING_REMINDER_HOURS: '2' },
  });
  ({ pool } = harness);
  await pool.query(
    "INSERT INTO integration_settings (key, enabled, configured, value, webhook_key) VALUES ('scheduling', true, true, 'https://calendly.com/coach/45', $1)",
    [KEY],
  );
});

afterAll(() => harness?.close());

/** The workers these follow-ups go through, for the test that calls it (stopped when it ends). */
const workers = () => buildTestWorker(harness, { queues: ['timers', 'email', 'payments'] });

const email = (label: string) => `follow-${label}-${randomBytes(4).toString('hex')}@example.com`;

async function timers(flowId: string) {
  const found = await pool.query<{ name: string; status: string; delay: number }>(
    "SELECT name, status, round(extract(epoch FROM run_after - created_at))::int AS delay FROM jobs WHERE flow_id = $1 AND queue = 'timers' ORDER BY created_at",
    [flowId],
  );
  return found.rows;
}

async function emailsOf(flowId: string, kind: string) {
  const found = await pool.query<{ status: string }>(
    `SELECT o.status FROM email_outbox o JOIN jobs j ON j.id = o.job_id WHERE j.flow_id = $1 AND o.kind = $2`,
    [flowId, kind],
  );
  return found.rows;
}

async function context(flowId: string) {
  const found = await pool.query<{ state: string; followUps: Record<string, unknown> }>(
    "SELECT state, snapshot->'context'->'followUps' AS \"followUps\" FROM flows WHERE id = $1",
    [flowId],
  );
  return found.rows[0]!;
}

describe('follow-up reminders', () => {
  it('invites a captured lead back once, after the configured wait, from the flow its capture started', async () => {
    const { queues } = await workers();
    const client = flowClient(harness.url);
    const started = await client.start();
    const away = email('away');
    const captured = await client.send(started.flowId, { type: 'CAPTURE_SUBMIT', name: 'Wanda Away', email: away });
    expect(captured.state).toBe('intro');
    // a reminder goes only to a proven address (decision 0045): this one followed a link mailed to it
    await pool.query('UPDATE leads SET email_proven_at = now() WHERE email = $1', [away]);
    expect(await timers(started.flowId)).toEqual([{ name: 'ASSESSMENT_REMINDER_DUE', status: expect.any(String), delay: 3600 }]);

    expect(await promoteTimers(pool, queues, started.flowId)).toBe(1);
    await until(async () => (await emailsOf(started.flowId, 'assessment_reminder')).length === 1);
    expect(await context(started.flowId)).toMatchObject({ state: 'intro', followUps: { remindedToFinish: true, remindedToBook: false } });

    // the same timer again (a replayed job) finds the flow reminded and sends nothing more
    expect(await new FlowEngine(pool).applyIfAllowed(started.flowId, { type: 'ASSESSMENT_REMINDER_DUE' }, 'server')).toBeNull();
    expect(await emailsOf(started.flowId, 'assessment_reminder')).toHaveLength(1);
  });

  it('sets no timer for a test lead, and a flow that went on to its results lets the reminder pass', async () => {
    const client = flowClient(harness.url);
    const testing = await client.start({ testing: true });
    await client.send(testing.flowId, { type: 'CAPTURE_SUBMIT', name: 'Test Lead', email: email('testing') });
    expect(await timers(testing.flowId)).toEqual([]);

    const { flowId } = await seedResultsFlow(pool, 'homework', email('finished'));
    expect(await new FlowEngine(pool).applyIfAllowed(flowId, { type: 'ASSESSMENT_REMINDER_DUE' }, 'server')).toBeNull();
  });

  it('reminds a paying lead to book once, lists them as needing attention, and a booking takes them off', async () => {
    const { queues } = await workers();
    const seeded = await seedResultsFlow(pool, 'book_call', email('payer'));
    const client = flowClient(harness.url, { headers: { cookie: `${VISITOR_COOKIE}=${seeded.visitorCookie}` } });
    await client.send(seeded.flowId, { type: 'CONTINUE' });
    await client.send(seeded.flowId, { type: 'PAY_DEPOSIT' });
    // the test payment confirms itself a second later (not promoted here: that would fire the reminder too)
    await until(async () => (await context(seeded.flowId)).state === 'payment_success.confirmed');
    const reminders = (await timers(seeded.flowId)).filter((timer) => timer.name === 'BOOKING_REMINDER_DUE');
    // a flow keeps the waits it started with: this one was seeded with the default day, not the server's 2 hours
    expect(reminders).toEqual([{ name: 'BOOKING_REMINDER_DUE', status: expect.any(String), delay: 86_400 }]);

    const admin = await signedInAdmin(pool);
    // a test payment (no Stripe key here): listed with test data included, and only then
    const attention = async (includeTest = true) => {
      const response = await fetch(`${harness.url}/api/admin/overview/attention?includeTest=${includeTest}`, { headers: admin.headers });
      return ((await response.json()) as { items: Array<{ leadId: string; reason: string }> }).items.filter(
        (item) => item.leadId === seeded.leadId,
      );
    };
    expect(await attention()).toEqual([]);

    await promoteTimers(pool, queues, seeded.flowId);
    await until(async () => (await emailsOf(seeded.flowId, 'booking_reminder')).length === 1);
    expect((await context(seeded.flowId)).followUps).toMatchObject({ remindedToBook: true });
    expect(await attention()).toEqual([expect.objectContaining({ reason: 'not_booked' })]);
    expect(await attention(false)).toEqual([]);
    expect(await new FlowEngine(pool).applyIfAllowed(seeded.flowId, { type: 'BOOKING_REMINDER_DUE' }, 'server')).toBeNull();

    expect(await postCalendlyEvent(harness.url, KEY, inviteeCreated(await bookingReferenceOf(pool, seeded.flowId), seeded.email))).toEqual({
      received: true,
      applied: true,
    });
    expect(await attention()).toEqual([]);
    expect(await emailsOf(seeded.flowId, 'booking_reminder')).toHaveLength(1);
    // the lead's page says so, from the lead's facts
    const detail = await fetch(`${harness.url}/api/admin/leads/${seeded.leadId}`, { headers: admin.headers });
    const { lead } = (await detail.json()) as { lead: Record<string, unknown> };
    expect(lead).toMatchObject({
      deposit: 'paid',
      deposit_test_mode: true,
      booking: 'booked',
      session_starts_at: null,
      session_provider: 'calendly',
      session_canceled: false,
      session_canceled_by: null,
      reminded_to_book: true,
    });
  });
});
