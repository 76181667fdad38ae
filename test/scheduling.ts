import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { bookingReferenceFor } from '#core/scheduling/booking-references.js';
import { calendlySignature } from '#core/scheduling/signatures.js';
import { seedResultsFlow } from './flows.js';

/** The headers Calendly sends with a raw body: JSON, signed with `key` at `at` (now by default). */
export function calendlyHeaders(key: string, raw: string, at = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { 'content-type': 'application/json', 'calendly-webhook-signature': calendlySignature(key, at, raw) };
}

/** The reference a flow's booking link carries (issued on first use, as the payment screen and emails do). */
export function bookingReferenceOf(pool: pg.Pool, flowId: string): Promise<string> {
  return bookingReferenceFor(pool, flowId);
}

/** Calendly's invitee.created for a booking made from a flow's link (its booking reference in utm_content). */
export function inviteeCreated(reference: string | null, email: string, startTime: string | null = null) {
  return {
    event: 'invitee.created',
    payload: {
      uri: `https://api.calendly.com/scheduled_events/EV/invitees/${randomUUID()}`,
      email,
      tracking: { utm_content: reference },
      scheduled_event: { start_time: startTime },
    },
  };
}

/** POSTs a Calendly event, signed with `key`, to the site at `base`; its JSON answer. */
export async function postCalendlyEvent(base: string, key: string, body: unknown): Promise<unknown> {
  const raw = JSON.stringify(body);
  const response = await fetch(`${base}/api/integrations/scheduling/webhook`, {
    method: 'POST',
    headers: calendlyHeaders(key, raw),
    body: raw,
  });
  return response.json();
}

/** A book_call lead whose flow paid the deposit (a succeeded tracked payment) and stands at payment_success. */
export async function seedPaidDepositFlow(pool: pg.Pool, address: string) {
  const seeded = await seedResultsFlow(pool, 'book_call', address, undefined, [
    { type: 'CONTINUE' },
    { type: 'PAY_DEPOSIT' },
    { type: 'PAYMENT_CONFIRMED', paymentIntentId: `pi_test_${randomBytes(6).toString('hex')}` },
  ]);
  await pool.query(
    "INSERT INTO payment_tracking (payment_intent_id, lead_id, flow_id, purpose, amount_cents, status, test_mode) VALUES ($1, $2, $3, 'deposit', 25000, 'succeeded', true)",
    [`pi_${randomBytes(8).toString('hex')}`, seeded.leadId, seeded.flowId],
  );
  return seeded;
}
