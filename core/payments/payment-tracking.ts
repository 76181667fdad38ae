import type pg from 'pg';
import type { Payment, PaymentPurpose, PaymentStatus } from '#machines/protocol/payment.js';
import { refreshLeadFacts } from '../leads/lead-facts.js';

// The one writer of payment_tracking (core/db/table-owners.ts): checkout, test payments, refunds
// and Stripe's webhook track a payment only through the functions here.

/** A payment_tracking row as PostgreSQL returns it. */
export interface PaymentRow {
  id: string;
  payment_intent_id: string | null;
  checkout_session_id: string | null;
  lead_id: string | null;
  flow_id: string | null;
  purpose: PaymentPurpose;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  test_mode: boolean;
  refund_id: string | null;
  refunded_at: Date | null;
  created_at: Date;
}

/** A payment that is not there. */
export class PaymentNotFoundError extends Error {
  readonly statusCode = 404;
  constructor() {
    super('No payment with that id.');
    this.name = 'PaymentNotFoundError';
  }
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    paymentIntentId: row.payment_intent_id,
    checkoutSessionId: row.checkout_session_id,
    leadId: row.lead_id,
    flowId: row.flow_id,
    purpose: row.purpose,
    amountCents: row.amount_cents,
    currency: row.currency,
    status: row.status,
    testMode: row.test_mode,
    refundId: row.refund_id,
    refundedAt: row.refunded_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

/** The payment a browser asks about: by the intent id it was given, or the checkout session it returned from. */
type PaymentLookup = { paymentIntentId: string } | { sessionId: string };

/**
 * verifyPayment: what payment_tracking says about one payment of the visitor's
 * own flows, or PaymentNotFoundError (also for anyone else's payment: an intent id is no credential).
 */
export async function findPayment(
  db: pg.Pool | pg.ClientBase,
  lookup: PaymentLookup,
  owner: { visitorId: string | null },
): Promise<Payment> {
  const [column, value] =
    'paymentIntentId' in lookup ? ['payment_intent_id', lookup.paymentIntentId] : ['checkout_session_id', lookup.sessionId];
  const found = await db.query<PaymentRow>(
    `SELECT p.* FROM payment_tracking p JOIN flows f ON f.id = p.flow_id AND f.visitor_id = $2 WHERE p.${column} = $1`,
    [value, owner.visitorId],
  );
  if (!found.rows[0]) throw new PaymentNotFoundError();
  return toPayment(found.rows[0]);
}

/** A payment about to be tracked: who pays what, for which flow. */
export interface NewPayment {
  leadId: string;
  flowId: string;
  purpose: PaymentPurpose;
  amountCents: number;
  currency: string;
}

/*
 * A payment that goes through or is refunded changes its lead's counted facts (paid, revenue,
 * booked): each such write keeps the lead's summary in its transaction (refreshLeadFacts,
 * decision 0055). A pending, failed or canceled one changes none.
 */

/** Tracks an opened checkout as pending, once per session (a retried job opens the same one); the webhook settles it. */
export async function trackPendingCheckout(db: pg.ClientBase, sessionId: string, payment: NewPayment): Promise<void> {
  await db.query(
    `INSERT INTO payment_tracking (checkout_session_id, status, lead_id, flow_id, purpose, amount_cents, currency)
     VALUES ($1, 'pending', $2, $3, $4, $5, $6) ON CONFLICT (checkout_session_id) DO NOTHING`,
    [sessionId, payment.leadId, payment.flowId, payment.purpose, payment.amountCents, payment.currency],
  );
}

/** A test-payment mode payment (no Stripe key): succeeded at once, no money moved. */
export async function trackTestPayment(db: pg.ClientBase, paymentIntentId: string, payment: NewPayment): Promise<void> {
  await db.query(
    `INSERT INTO payment_tracking (payment_intent_id, status, test_mode, lead_id, flow_id, purpose, amount_cents, currency)
     VALUES ($1, 'succeeded', true, $2, $3, $4, $5, $6)`,
    [paymentIntentId, payment.leadId, payment.flowId, payment.purpose, payment.amountCents, payment.currency],
  );
  await refreshLeadFacts(db, [payment.leadId]);
}

/** The coach's refund, made at Stripe (or locally for a test payment), on the row the caller holds locked. */
export async function markRefunded(db: pg.ClientBase, paymentId: string, refundId: string): Promise<PaymentRow> {
  const updated = await db.query<PaymentRow>(
    "UPDATE payment_tracking SET status = 'refunded', refund_id = $2, refunded_at = now() WHERE id = $1 RETURNING *",
    [paymentId, refundId],
  );
  await refreshLeadFacts(db, [updated.rows[0]!.lead_id]);
  return updated.rows[0]!;
}

/** A paid checkout: its pending payment succeeds under the intent Stripe made; the flow it was for, or null when none was pending. */
export async function settlePaidCheckout(
  db: pg.ClientBase,
  sessionId: string,
  paymentIntentId: string,
): Promise<{ flowId: string | null } | null> {
  const updated = await db.query<{ flow_id: string | null; lead_id: string | null }>(
    `UPDATE payment_tracking SET payment_intent_id = $2, status = 'succeeded'
     WHERE checkout_session_id = $1 AND status = 'pending' RETURNING flow_id, lead_id`,
    [sessionId, paymentIntentId],
  );
  await refreshLeadFacts(
    db,
    updated.rows.map((row) => row.lead_id),
  );
  return updated.rowCount ? { flowId: updated.rows[0]!.flow_id } : null;
}

/**
 * A checkout that ended without money: its pending payment is marked; the flow it was for, and
 * whether it was the flow's latest attempt (an older one must not fail a newer one).
 */
export async function endPendingCheckout(
  db: pg.ClientBase,
  sessionId: string,
  status: 'failed' | 'canceled',
): Promise<{ flowId: string | null; latest: boolean } | null> {
  const updated = await db.query<{ flow_id: string | null; latest: boolean }>(
    `UPDATE payment_tracking p SET status = $2
     WHERE checkout_session_id = $1 AND status = 'pending'
     RETURNING flow_id,
       NOT EXISTS (SELECT 1 FROM payment_tracking n WHERE n.flow_id = p.flow_id AND n.created_at > p.created_at) AS latest`,
    [sessionId, status],
  );
  const row = updated.rows[0];
  return row ? { flowId: row.flow_id, latest: row.latest } : null;
}

/** A refund Stripe reports (the dashboard's, or ours confirmed): the succeeded payments it refunds now, none when already recorded. */
export async function recordRefundAtStripe(db: pg.ClientBase, paymentIntentId: string, refundId: string | null): Promise<PaymentRow[]> {
  const refunded = await db.query<PaymentRow>(
    `UPDATE payment_tracking SET status = 'refunded', refunded_at = now(), refund_id = coalesce($2, refund_id)
     WHERE payment_intent_id = $1 AND status = 'succeeded' RETURNING *`,
    [paymentIntentId, refundId],
  );
  await refreshLeadFacts(
    db,
    refunded.rows.map((row) => row.lead_id),
  );
  return refunded.rows;
}
