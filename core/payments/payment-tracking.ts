import type pg from 'pg';
import type { Payment, PaymentPurpose, PaymentStatus } from '#machines/protocol/payment.js';

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
