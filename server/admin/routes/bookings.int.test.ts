import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '#test/admin-session.js';
import { seedResultsFlow } from '#test/flows.js';
import { calendlyHeaders, seedPaidDepositFlow } from '#test/scheduling.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';

/*
 * Unmatched bookings on the lead page (decision 0046), against real PostgreSQL and the real engine:
 * a booking no reference matched is listed on a lead's page, the lead's own first, and the coach
 * assigns it with one request, which books the lead's deposit flow through the machine. Only an
 * admin reaches either route. A database of its own: a second role is added to users.
 */

const KEY = `sched-key-${randomBytes(8).toString('hex')}`;
let harness: TestApp;
let app: FastifyInstance;
let pool: pg.Pool;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  await pool.query(
    "INSERT INTO integration_settings (key, enabled, configured, value, webhook_key) VALUES ('scheduling', true, true, 'https://calendly.com/coach/45', $1)",
    [KEY],
  );
  admin = await signedInAdmin(pool);
});

afterAll(() => harness?.close());

const email = (label: string) => `unmatched-${label}-${randomBytes(4).toString('hex')}@example.com`;

async function paidLead(label: string, name: string) {
  const seeded = await seedPaidDepositFlow(pool, email(label));
  await pool.query('UPDATE leads SET name = $2 WHERE lead_id = $1', [seeded.leadId, name]);
  return seeded;
}

/** A signed Calendly booking without a reference: kept unmatched. */
async function unmatchedBooking(address: string, name: string) {
  const uri = `https://api.calendly.com/scheduled_events/EV/invitees/${randomUUID()}`;
  const raw = JSON.stringify({
    event: 'invitee.created',
    payload: { uri, email: address, name, tracking: { utm_content: null }, scheduled_event: { start_time: '2026-12-07T16:00:00Z' } },
  });
  const response = await app.inject({
    method: 'POST',
    url: '/api/integrations/scheduling/webhook',
    payload: raw,
    headers: calendlyHeaders(KEY, raw),
  });
  expect(response.json()).toMatchObject({ received: true, applied: false });
  return uri;
}

const listFor = (leadId: string, headers: Record<string, string> = admin.headers) =>
  app.inject({ method: 'GET', url: `/api/admin/leads/${leadId}/unmatched-bookings`, headers });

const assign = (bookingId: string, leadId: string, headers: Record<string, string> = admin.headers) =>
  app.inject({ method: 'POST', url: `/api/admin/bookings/${bookingId}/assign`, payload: { leadId }, headers });

async function stateOf(flowId: string) {
  const found = await pool.query<{ state: string }>('SELECT state FROM flows WHERE id = $1', [flowId]);
  return found.rows[0]!.state;
}

describe('unmatched bookings on the lead page', () => {
  it("lists them, the lead's own first, and one request assigns one: the lead's deposit flow is booked through the machine", async () => {
    const lead = await paidLead('owner', 'Grace Hopper');
    const other = email('other');
    const typedElsewhere = await unmatchedBooking(other, 'Someone Else');
    const theirs = await unmatchedBooking(`personal-${randomBytes(3).toString('hex')}@example.org`, 'grace  hopper');

    const listed = await listFor(lead.leadId);
    expect(listed.statusCode, listed.body).toBe(200);
    const items = listed.json().items as Array<{ id: string; bookingKey: string; resembles: boolean; startsAt: string; name: string }>;
    expect(items.map((item) => [item.bookingKey, item.resembles])).toEqual([
      [theirs, true],
      [typedElsewhere, false],
    ]);
    expect(items[0]).toMatchObject({ provider: 'calendly', name: 'grace  hopper', startsAt: '2026-12-07T16:00:00.000Z' });

    const assigned = await assign(items[0]!.id, lead.leadId);
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toEqual({ assigned: true, flowId: lead.flowId });
    expect(await stateOf(lead.flowId)).toBe('payment_success.booked');
    const booked = await pool.query("SELECT payload, origin FROM flow_events WHERE flow_id = $1 AND type = 'SESSION_BOOKED'", [
      lead.flowId,
    ]);
    expect(booked.rows).toEqual([{ payload: { provider: 'calendly', startsAt: '2026-12-07T16:00:00.000Z' }, origin: 'server' }]);
    const facts = await pool.query('SELECT booking FROM lead_facts(true) WHERE lead_id = $1', [lead.leadId]);
    expect(facts.rows).toEqual([{ booking: 'booked' }]);
    // assigned: off the list, and a second assignment is refused
    expect((await listFor(lead.leadId)).json().items.map((item: { bookingKey: string }) => item.bookingKey)).toEqual([typedElsewhere]);
    const again = await assign(items[0]!.id, lead.leadId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/no longer unmatched/);
  });

  it('refuses an assignment the lead cannot take (409), and names what is missing (404, 400)', async () => {
    const bookingUri = await unmatchedBooking(email('refused'), 'Refused');
    const found = await pool.query<{ id: string }>('SELECT id FROM scheduled_bookings WHERE booking_key = $1', [bookingUri]);
    const bookingId = found.rows[0]!.id;
    // a lead at the results, with no paid deposit
    const unpaid = await seedResultsFlow(pool, 'book_call', email('unpaid'));
    const noDeposit = await assign(bookingId, unpaid.leadId);
    expect(noDeposit.statusCode).toBe(409);
    expect(noDeposit.json().message).toBe('This lead has no paid deposit to book a session on.');
    expect((await assign(randomUUID(), unpaid.leadId)).statusCode).toBe(404);
    expect((await assign(bookingId, randomUUID())).statusCode).toBe(404);
    expect((await listFor(randomUUID())).statusCode).toBe(404);
    const badBody = await app.inject({
      method: 'POST',
      url: `/api/admin/bookings/${bookingId}/assign`,
      payload: {},
      headers: admin.headers,
    });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().message).toMatch(/leadId/);
    // nothing moved: still unmatched
    const still = await pool.query('SELECT flow_id, status FROM scheduled_bookings WHERE id = $1', [bookingId]);
    expect(still.rows).toEqual([{ flow_id: null, status: 'booked' }]);
  });

  it('answers 401 without an admin session, 403 to a non-admin and to a missing CSRF token, and assigns nothing', async () => {
    const lead = await paidLead('guarded', 'Guarded Lead');
    const bookingUri = await unmatchedBooking(lead.email, 'Guarded Lead');
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM scheduled_bookings WHERE booking_key = $1', [bookingUri]);
    const bookingId = rows[0]!.id;
    expect((await listFor(lead.leadId, {})).statusCode).toBe(401);
    expect((await assign(bookingId, lead.leadId, {})).statusCode).toBe(401);
    expect((await assign(bookingId, lead.leadId, { cookie: admin.headers.cookie })).statusCode).toBe(403);
    await pool.query('ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check');
    const member = await signedInAdmin(pool, { role: 'member' });
    for (const response of [await listFor(lead.leadId, member.headers), await assign(bookingId, lead.leadId, member.headers)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('This needs an admin account.');
    }
    expect(await stateOf(lead.flowId)).toBe('payment_success.confirmed');
    const still = await pool.query('SELECT flow_id FROM scheduled_bookings WHERE id = $1', [bookingId]);
    expect(still.rows).toEqual([{ flow_id: null }]);
  });
  it("a lead's data-protection delete takes the unmatched bookings made with its address, and leaves others'", async () => {
    const lead = await paidLead('erased', 'Erased Lead');
    await unmatchedBooking(lead.email.toUpperCase(), 'Erased Lead');
    const othersAddress = email('kept');
    await unmatchedBooking(othersAddress, 'Kept');
    const deleted = await app.inject({ method: 'DELETE', url: `/api/admin/leads/${lead.leadId}`, headers: admin.headers });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const left = await pool.query('SELECT lower(email) AS email FROM scheduled_bookings WHERE lower(email) IN (lower($1), lower($2))', [
      lead.email,
      othersAddress,
    ]);
    expect(left.rows).toEqual([{ email: othersAddress }]);
  });
});
