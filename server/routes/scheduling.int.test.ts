import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowEngine } from '#core/flows/engine.js';
import { bookingReferenceFor } from '#core/scheduling/booking-references.js';
import { calcomSignature } from '#core/scheduling/signatures.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { seedResultsFlow } from '#test/flows.js';
import { calendlyHeaders, seedPaidDepositFlow } from '#test/scheduling.js';
import { openSocket } from '#test/journey.js';
import { fetchNeedsAttention } from '#server/admin/attention.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';

/*
 * The scheduling webhook against real PostgreSQL and the real engine: signatures (Calendly and
 * Cal.com), each event id applied once, the match by the booking link's reference or the lead's
 * address, and what a booking moves: the flow, its journey, the live push and the outgoing webhooks.
 */

const KEY = `sched-key-${randomBytes(8).toString('hex')}`;
const WEBHOOK = '/api/integrations/scheduling/webhook';
let harness: TestApp;
let app: FastifyInstance;
let pool: pg.Pool;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true });
  ({ app, pool } = harness);
  await pool.query(
    "INSERT INTO integration_settings (key, enabled, configured, value, webhook_key) VALUES ('scheduling', true, true, 'https://calendly.com/coach/45', $1)",
    [KEY],
  );
});

afterAll(() => harness?.close());

const email = (label: string) => `sched-${label}-${randomBytes(4).toString('hex')}@example.com`;

/** A lead whose flow paid the deposit (a succeeded tracked payment) and stands at payment_success. */
async function paidFlow(label: string) {
  const seeded = await seedPaidDepositFlow(pool, email(label));
  return seeded;
}

/** The reference the flow's booking link carries (issued on first use, as the payment screen asks for it). */
const referenceOf = (flowId: string) => bookingReferenceFor(pool, flowId);

/** The lead followed a link mailed to their address (what proves it: another module sets this in production). */
async function proveAddress(leadId: string) {
  await pool.query('UPDATE leads SET email_proven_at = now() WHERE lead_id = $1', [leadId]);
}

/** The bookings kept for an address. */
async function bookingsOf(address: string) {
  const found = await pool.query(
    `SELECT provider, booking_key, flow_id, matched_by, status, name, email, starts_at FROM scheduled_bookings
     WHERE lower(email) = lower($1) ORDER BY created_at`,
    [address],
  );
  return found.rows;
}

async function flowOf(flowId: string) {
  const found = await pool.query<{ state: string; version: number; path: { kind: string; booking?: string } | null }>(
    "SELECT state, version, snapshot->'context'->'completedPath' AS path FROM flows WHERE id = $1",
    [flowId],
  );
  return found.rows[0]!;
}

function calendlyBody(
  event: 'invitee.created' | 'invitee.canceled',
  fields: { email?: string; ref?: string | null; uri?: string; extra?: object } = {},
) {
  return {
    event,
    created_at: new Date().toISOString(),
    payload: {
      uri: fields.uri ?? `https://api.calendly.com/scheduled_events/EV/invitees/${randomUUID()}`,
      email: fields.email ?? 'someone@example.com',
      name: 'Booked Lead',
      tracking: { utm_content: fields.ref ?? null, utm_source: null },
      scheduled_event: { start_time: '2026-12-01T15:00:00.000000Z', end_time: '2026-12-01T15:45:00.000000Z' },
      ...fields.extra,
    },
  };
}

function postCalendly(body: unknown, options: { key?: string; at?: number; raw?: string; on?: FastifyInstance } = {}) {
  const raw = options.raw ?? JSON.stringify(body);
  const at = options.at ?? Math.floor(Date.now() / 1000);
  return (options.on ?? app).inject({
    method: 'POST',
    url: WEBHOOK,
    payload: raw,
    headers: calendlyHeaders(options.key ?? KEY, raw, at),
  });
}

function postCalcom(body: unknown, key = KEY) {
  const raw = JSON.stringify(body);
  return app.inject({
    method: 'POST',
    url: WEBHOOK,
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-cal-signature-256': calcomSignature(key, raw) },
  });
}

async function receipts(provider: string) {
  const found = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_receipts WHERE provider = $1', [provider]);
  return found.rows[0]!.n;
}

describe('POST /api/integrations/scheduling/webhook', () => {
  it('moves the flow its link named to booked, once, and back on a cancellation', async () => {
    const { flowId, visitorCookie } = await paidFlow('calendly-ref');
    const socket = await openSocket(harness.url, `${VISITOR_COOKIE}=${visitorCookie}`);
    await socket.subscribe(flowId);
    const created = calendlyBody('invitee.created', { ref: await referenceOf(flowId) });

    const first = await postCalendly(created);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, applied: true });
    expect(await flowOf(flowId)).toMatchObject({ state: 'payment_success.booked', path: { kind: 'deposit_paid', booking: 'booked' } });
    const pushed = await socket.next((frame) => frame.type === 'event' && frame.event.type === 'SESSION_BOOKED');
    expect(pushed).toMatchObject({ state: 'payment_success.booked' });
    socket.close();

    // the same delivery again (a retry, or a replay within the window) changes nothing
    const { version } = await flowOf(flowId);
    const again = await postCalendly(created);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect((await flowOf(flowId)).version).toBe(version);
    const logged = await pool.query("SELECT payload FROM flow_events WHERE flow_id = $1 AND type = 'SESSION_BOOKED'", [flowId]);
    expect(logged.rows).toEqual([{ payload: { provider: 'calendly', startsAt: '2026-12-01T15:00:00.000000Z' } }]);

    const canceled = calendlyBody('invitee.canceled', {
      ref: await referenceOf(flowId),
      extra: { cancellation: { canceler_type: 'host' } },
    });
    expect((await postCalendly(canceled)).json()).toEqual({ received: true, applied: true });
    expect(await flowOf(flowId)).toMatchObject({ state: 'payment_success.booking_opened', path: { booking: 'opened' } });
    const cancelEvent = await pool.query("SELECT payload FROM flow_events WHERE flow_id = $1 AND type = 'SESSION_CANCELED'", [flowId]);
    expect(cancelEvent.rows).toEqual([{ payload: { provider: 'calendly', canceledBy: 'coach' } }]);
  });

  it("the finding: a signed booking with a payer's address and no reference books nobody, and is kept unmatched with what it said", async () => {
    const victim = await paidFlow('victim');
    const forged = calendlyBody('invitee.created', { email: victim.email });
    const response = await postCalendly(forged);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, applied: false, reason: expect.stringMatching(/kept for the coach/) });
    expect(await flowOf(victim.flowId)).toMatchObject({
      state: 'payment_success.confirmed',
      path: { kind: 'deposit_paid', booking: 'none' },
    });
    expect(await bookingsOf(victim.email)).toEqual([
      {
        provider: 'calendly',
        booking_key: forged.payload.uri,
        flow_id: null,
        matched_by: null,
        status: 'booked',
        name: 'Booked Lead',
        email: victim.email,
        starts_at: new Date('2026-12-01T15:00:00Z'),
      },
    ]);
  });

  it("the finding: an event naming the payer's flow id (the old reference) with another address applies nothing", async () => {
    const victim = await paidFlow('named-flow');
    const stranger = email('stranger');
    expect((await postCalendly(calendlyBody('invitee.created', { email: stranger, ref: victim.flowId }))).json()).toMatchObject({
      applied: false,
    });
    const calcom = await postCalcom({
      triggerEvent: 'BOOKING_CREATED',
      payload: { uid: `uid-${randomUUID()}`, attendees: [{ email: stranger, name: 'S' }], metadata: { ref: victim.flowId } },
    });
    expect(calcom.json()).toMatchObject({ received: true, applied: false });
    // nor does a reference this site never issued
    expect(
      (await postCalendly(calendlyBody('invitee.created', { email: stranger, ref: randomBytes(16).toString('hex') }))).json(),
    ).toMatchObject({ applied: false });
    expect((await flowOf(victim.flowId)).state).toBe('payment_success.confirmed');
    expect(await bookingsOf(stranger)).toHaveLength(3);
  });

  it('matches by the address only for the one paid, unbooked lead whose address is proven', async () => {
    // proven, paid and not booked: the booking is theirs
    const payer = await paidFlow('proven');
    await proveAddress(payer.leadId);
    const response = await postCalendly(calendlyBody('invitee.created', { email: payer.email.toUpperCase() }));
    expect(response.json()).toEqual({ received: true, applied: true });
    expect((await flowOf(payer.flowId)).state).toBe('payment_success.booked');
    expect(await bookingsOf(payer.email)).toMatchObject([{ flow_id: payer.flowId, matched_by: 'email', status: 'booked' }]);
    // booked already: a second booking by address is not guessed onto them
    expect((await postCalendly(calendlyBody('invitee.created', { email: payer.email }))).json()).toMatchObject({ applied: false });
    expect(await bookingsOf(payer.email)).toMatchObject([{ flow_id: payer.flowId }, { flow_id: null, status: 'booked' }]);

    // two paid, unbooked leads with the proven address (testing mode lets a test lead share it): neither
    const first = await paidFlow('shared');
    const second = await paidFlow('shared-too');
    await pool.query("UPDATE leads SET email = $2, tags = array_append(tags, 'test') WHERE lead_id = $1", [second.leadId, first.email]);
    await proveAddress(first.leadId);
    await proveAddress(second.leadId);
    expect((await postCalendly(calendlyBody('invitee.created', { email: first.email }))).json()).toMatchObject({ applied: false });
    expect((await flowOf(first.flowId)).state).toBe('payment_success.confirmed');
    expect((await flowOf(second.flowId)).state).toBe('payment_success.confirmed');
  });

  it("a booking with the link's reference books through the flow: the reminder is not sent and Needs attention lets go", async () => {
    const seeded = await seedResultsFlow(pool, 'book_call', email('reminded'), undefined, [
      { type: 'CONTINUE' },
      { type: 'PAY_DEPOSIT' },
      { type: 'PAYMENT_CONFIRMED', paymentIntentId: `pi_test_${randomBytes(6).toString('hex')}` },
      { type: 'BOOKING_REMINDER_DUE' },
    ]);
    await pool.query(
      "INSERT INTO payment_tracking (payment_intent_id, lead_id, flow_id, purpose, amount_cents, status, test_mode) VALUES ($1, $2, $3, 'deposit', 25000, 'succeeded', false)",
      [`pi_${randomBytes(8).toString('hex')}`, seeded.leadId, seeded.flowId],
    );
    const attention = async () => {
      const items = await fetchNeedsAttention(pool, true);
      return items.items.filter((item) => item.leadId === seeded.leadId).map((item) => item.reason);
    };
    expect(await attention()).toEqual(['not_booked']);
    const reference = await referenceOf(seeded.flowId);
    expect(reference).toMatch(/^[0-9a-f]{32}$/);
    expect(reference).not.toContain(seeded.flowId.replace(/-/g, '').slice(0, 8));
    expect(
      (await postCalendly(calendlyBody('invitee.created', { email: email('typed-elsewhere'), ref: reference.toUpperCase() }))).json(),
    ).toEqual({
      received: true,
      applied: true,
    });
    expect(await flowOf(seeded.flowId)).toMatchObject({ state: 'payment_success.booked', path: { booking: 'booked' } });
    const events = await pool.query("SELECT origin FROM flow_events WHERE flow_id = $1 AND type = 'SESSION_BOOKED'", [seeded.flowId]);
    expect(events.rows).toEqual([{ origin: 'server' }]);
    expect(await attention()).toEqual([]);

    // the reminder to book, due a day after the deposit, no longer fires once booked by the reference
    const engine = new FlowEngine(pool);
    const [booked, control] = [await paidFlow('reminder-booked'), await paidFlow('reminder-control')];
    await postCalendly(calendlyBody('invitee.created', { ref: await referenceOf(booked.flowId) }));
    expect(await engine.applyIfAllowed(booked.flowId, { type: 'BOOKING_REMINDER_DUE' }, 'server')).toBeNull();
    expect(await engine.applyIfAllowed(control.flowId, { type: 'BOOKING_REMINDER_DUE' }, 'server')).not.toBeNull();
  });

  it('updates an unmatched booking when the provider reschedules or cancels it', async () => {
    const address = email('unmatched-moves');
    const first = calendlyBody('invitee.created', { email: address });
    await postCalendly(first);
    // Calendly: the old invitee is cancelled as rescheduled, the new one names it
    const moved = calendlyBody('invitee.created', {
      email: address,
      extra: { old_invitee: first.payload.uri, scheduled_event: { start_time: '2026-12-05T09:00:00Z' } },
    });
    expect((await postCalendly(moved)).json()).toMatchObject({ applied: false });
    expect(
      (
        await postCalendly(calendlyBody('invitee.canceled', { email: address, uri: first.payload.uri, extra: { rescheduled: true } }))
      ).json(),
    ).toMatchObject({ applied: false });
    expect(await bookingsOf(address)).toMatchObject([
      { booking_key: moved.payload.uri, status: 'booked', starts_at: new Date('2026-12-05T09:00:00Z') },
    ]);
    await postCalendly(
      calendlyBody('invitee.canceled', { email: address, uri: moved.payload.uri, extra: { cancellation: { canceler_type: 'invitee' } } }),
    );
    expect(await bookingsOf(address)).toMatchObject([{ booking_key: moved.payload.uri, status: 'canceled', flow_id: null }]);

    // Cal.com: a reschedule is a new uid naming the old (rescheduleUid), then a cancellation of the new
    const calAddress = email('unmatched-calcom');
    const calBooking = (trigger: string, uid: string, fields: object = {}) => ({
      triggerEvent: trigger,
      payload: { uid, startTime: '2026-12-02T10:00:00Z', attendees: [{ email: calAddress, name: 'Cal Lead' }], ...fields },
    });
    await postCalcom(calBooking('BOOKING_CREATED', 'cal-a'));
    await postCalcom(calBooking('BOOKING_RESCHEDULED', 'cal-b', { rescheduleUid: 'cal-a', startTime: '2026-12-04T10:00:00Z' }));
    expect(await bookingsOf(calAddress)).toMatchObject([
      { booking_key: 'cal-b', status: 'booked', name: 'Cal Lead', starts_at: new Date('2026-12-04T10:00:00Z') },
    ]);
    await postCalcom(calBooking('BOOKING_CANCELLED', 'cal-b', { cancelledBy: calAddress }));
    expect(await bookingsOf(calAddress)).toMatchObject([{ booking_key: 'cal-b', status: 'canceled' }]);
  });

  it('a reschedule of a matched booking follows its flow, without the reference', async () => {
    const { flowId } = await paidFlow('matched-moves');
    const created = calendlyBody('invitee.created', { ref: await referenceOf(flowId) });
    await postCalendly(created);
    const moved = calendlyBody('invitee.created', {
      extra: { old_invitee: created.payload.uri, scheduled_event: { start_time: '2026-12-09T09:00:00Z' } },
    });
    expect((await postCalendly(moved)).json()).toEqual({ received: true, applied: true });
    const lead = calendlyBody('invitee.canceled', { uri: moved.payload.uri, extra: { cancellation: { canceler_type: 'invitee' } } });
    expect((await postCalendly(lead)).json()).toEqual({ received: true, applied: true });
    expect((await flowOf(flowId)).state).toBe('payment_success.booking_opened');
  });

  it('records the booking on the deposit path wherever the visitor has gone since', async () => {
    const { flowId } = await paidFlow('moved-on');
    await new FlowEngine(pool).apply(flowId, { type: 'VIEW_RESULTS' }, 'server');
    const before = await flowOf(flowId);
    expect((await postCalendly(calendlyBody('invitee.created', { ref: await referenceOf(flowId) }))).json()).toEqual({
      received: true,
      applied: true,
    });
    const after = await flowOf(flowId);
    expect(after.state).toBe(before.state);
    expect(after.path).toMatchObject({ kind: 'deposit_paid', booking: 'booked' });
  });

  it('Cal.com: created, rescheduled and cancelled by the lead, matched by metadata ref', async () => {
    const { flowId } = await paidFlow('calcom');
    const ref = await referenceOf(flowId);
    const booking = (trigger: string, uid: string, fields: object = {}) => ({
      triggerEvent: trigger,
      createdAt: new Date().toISOString(),
      payload: {
        uid,
        startTime: '2026-12-02T10:00:00Z',
        organizer: { email: 'coach@example.com' },
        attendees: [{ email: 'lead@example.com', name: 'Lead' }],
        metadata: { ref },
        ...fields,
      },
    });
    expect((await postCalcom(booking('BOOKING_CREATED', 'uid-1'))).json()).toEqual({ received: true, applied: true });
    expect((await flowOf(flowId)).state).toBe('payment_success.booked');
    expect((await postCalcom(booking('BOOKING_RESCHEDULED', 'uid-2', { startTime: '2026-12-03T10:00:00Z' }))).json()).toEqual({
      received: true,
      applied: true,
    });
    const cancel = await postCalcom(booking('BOOKING_CANCELLED', 'uid-2', { cancelledBy: 'lead@example.com' }));
    expect(cancel.json()).toEqual({ received: true, applied: true });
    const events = await pool.query<{ type: string; payload: object }>(
      "SELECT type, payload FROM flow_events WHERE flow_id = $1 AND type LIKE 'SESSION_%' ORDER BY seq",
      [flowId],
    );
    expect(events.rows).toEqual([
      { type: 'SESSION_BOOKED', payload: { provider: 'calcom', startsAt: '2026-12-02T10:00:00Z' } },
      { type: 'SESSION_BOOKED', payload: { provider: 'calcom', startsAt: '2026-12-03T10:00:00Z' } },
      { type: 'SESSION_CANCELED', payload: { provider: 'calcom', canceledBy: 'lead' } },
    ]);
    // Cal.com's test delivery is acknowledged and changes nothing
    expect((await postCalcom({ triggerEvent: 'PING', payload: {} })).json()).toMatchObject({ received: true, applied: false });
  });

  it('refuses a bad signature, another key, a stale timestamp and an unsigned request, storing nothing', async () => {
    const { flowId } = await paidFlow('refused');
    const body = calendlyBody('invitee.created', { ref: await referenceOf(flowId) });
    const before = await receipts('calendly');
    const forged = await postCalendly(body, { key: 'not-the-coach-key-at-all' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toMatch(/does not match/);
    const stale = await postCalendly(body, { at: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toMatch(/replay/);
    const calcom = await postCalcom(
      { triggerEvent: 'BOOKING_CREATED', payload: { uid: 'x', metadata: { ref: await referenceOf(flowId) } } },
      'wrong-key-wrong-key',
    );
    expect(calcom.statusCode).toBe(401);
    const unsigned = await app.inject({ method: 'POST', url: WEBHOOK, payload: body });
    expect(unsigned.statusCode).toBe(401);
    expect(await receipts('calendly')).toBe(before);
    expect((await flowOf(flowId)).state).toBe('payment_success.confirmed');
  });

  it('answers 400 naming the field for a signed body of the wrong shape, storing nothing', async () => {
    const before = await receipts('calendly');
    const wrong = await postCalendly({ event: 'invitee.created', payload: { email: 'a@b.co' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^payload\.uri/);
    const notJson = await postCalendly(null, { raw: '{"event":' });
    expect(notJson.statusCode).toBe(400);
    expect(await receipts('calendly')).toBe(before);
  });

  it('records but does not apply a booking that matches no paid flow, or a flow not on the deposit path', async () => {
    const unknown = await postCalendly(calendlyBody('invitee.created', { email: email('nobody') }));
    expect(unknown.json()).toMatchObject({ received: true, applied: false, reason: expect.stringMatching(/no assessment flow/) });
    const { flowId } = await seedResultsFlow(pool, 'homework', email('homework'));
    const notDeposit = await postCalendly(calendlyBody('invitee.created', { ref: await referenceOf(flowId) }));
    expect(notDeposit.json()).toMatchObject({ received: true, applied: false });
    expect((await flowOf(flowId)).state).toBe('results');
  });

  it('tells the automation webhook and the team chat of a booking, in the transaction that applies it', async () => {
    await pool.query(
      "INSERT INTO integration_settings (key, enabled, configured, value, signing_secret) VALUES ('automation', true, true, 'https://hooks.example.com/x', $1), ('team_chat', true, true, 'https://hooks.slack.com/services/T/B/x', NULL)",
      [`whsec_${randomBytes(32).toString('hex')}`],
    );
    try {
      const { flowId } = await paidFlow('notified');
      await postCalendly(calendlyBody('invitee.created', { ref: await referenceOf(flowId) }));
      const jobs = await pool.query<{ name: string; event: string }>(
        "SELECT name, payload->'body'->>'event' AS event FROM jobs WHERE flow_id = $1 AND queue = 'webhooks' ORDER BY name",
        [flowId],
      );
      expect(jobs.rows).toEqual([
        { name: 'automation:lead.booked', event: 'lead.booked' },
        { name: 'team_chat:lead.booked', event: 'lead.booked' },
      ]);
    } finally {
      await pool.query("DELETE FROM integration_settings WHERE key IN ('automation', 'team_chat')");
    }
  });

  it('keeps a coach-cancelled deposit for a decision under the flag policy, and refunds it under the refund policy', async () => {
    const flagged = await paidFlow('flagged');
    const cancel = async (flowId: string) =>
      calendlyBody('invitee.canceled', { ref: await referenceOf(flowId), extra: { cancellation: { canceler_type: 'host' } } });
    await postCalendly(calendlyBody('invitee.created', { ref: await referenceOf(flagged.flowId) }));
    expect((await postCalendly(await cancel(flagged.flowId))).json()).toEqual({ received: true, applied: true });
    const noRefund = await pool.query("SELECT 1 FROM jobs WHERE flow_id = $1 AND name = 'refund-deposit'", [flagged.flowId]);
    expect(noRefund.rowCount).toBe(0);

    const refunding = await buildTestApp({ sharing: { pool }, config: { ...harness.config, COACH_CANCELLATION_POLICY: 'refund' } });
    try {
      await buildTestWorker(refunding, { queues: ['payments', 'email'] });
      const refunded = await paidFlow('refunded');
      await postCalendly(calendlyBody('invitee.created', { ref: await referenceOf(refunded.flowId) }));
      const response = await postCalendly(await cancel(refunded.flowId), { on: refunding.app });
      expect(response.json()).toEqual({ received: true, applied: true });
      await until(async () => {
        const payment = await pool.query<{ status: string }>('SELECT status FROM payment_tracking WHERE flow_id = $1', [refunded.flowId]);
        return payment.rows[0]?.status === 'refunded';
      });
      // a lead cancelling is theirs to rebook: nothing is refunded
      const leadCancel = await paidFlow('lead-cancel');
      await postCalendly(calendlyBody('invitee.created', { ref: await referenceOf(leadCancel.flowId) }));
      const byLead = calendlyBody('invitee.canceled', {
        ref: await referenceOf(leadCancel.flowId),
        extra: { cancellation: { canceler_type: 'invitee' } },
      });
      await postCalendly(byLead, { on: refunding.app });
      const leadJobs = await pool.query("SELECT 1 FROM jobs WHERE flow_id = $1 AND name = 'refund-deposit'", [leadCancel.flowId]);
      expect(leadJobs.rowCount).toBe(0);
    } finally {
      await refunding.close();
    }
  });

  it('refuses every event with 503 while no signing key is saved', async () => {
    await pool.query("UPDATE integration_settings SET webhook_key = NULL WHERE key = 'scheduling'");
    try {
      const response = await postCalendly(calendlyBody('invitee.created', {}));
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toMatch(/signing key/);
    } finally {
      await pool.query("UPDATE integration_settings SET webhook_key = $1 WHERE key = 'scheduling'", [KEY]);
    }
  });
});
