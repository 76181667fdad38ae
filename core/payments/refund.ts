import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { FlowEngine } from '../flows/engine.js';
import { queueRefundConfirmation } from './payment-emails.js';
import type { Payment } from '#machines/protocol/payment.js';
import { markRefunded, PaymentNotFoundError, toPayment, type PaymentRow } from './payment-tracking.js';
import type { StripeClient } from './stripe-client.js';

/** Only a succeeded payment can be refunded. */
export class PaymentNotRefundableError extends Error {
  readonly statusCode = 409;
  constructor(status: string) {
    super(`Only a succeeded payment can be refunded; this one is ${status}.`);
    this.name = 'PaymentNotRefundableError';
  }
}

/** Stripe did not make the refund; `cause` holds what it said, for the log only. */
export class RefundFailedError extends Error {
  readonly statusCode = 502;
  constructor(cause: unknown) {
    super('Stripe did not make the refund. Please try again, or refund it in the Stripe dashboard.', { cause });
    this.name = 'RefundFailedError';
  }
}

/** A real payment while the server has no Stripe key: it can only be refunded in the Stripe dashboard. */
class StripeNotConfiguredError extends Error {
  readonly statusCode = 503;
  constructor() {
    super('Stripe is not configured on this server (STRIPE_SECRET_KEY is not set); refund this payment in the Stripe dashboard.');
    this.name = 'StripeNotConfiguredError';
  }
}

async function refundAtStripe(stripe: () => Promise<Stripe>, payment: PaymentRow): Promise<string> {
  let refund: Stripe.Refund;
  try {
    // one refund per payment, however often the admin presses the button or the call is retried
    const client = await stripe();
    refund = await client.refunds.create({ payment_intent: payment.payment_intent_id! }, { idempotencyKey: `refund-${payment.id}` });
  } catch (error) {
    throw new RefundFailedError(error);
  }
  if (refund.status === 'failed' || refund.status === 'canceled')
    throw new RefundFailedError(new Error(`refund ${refund.id} is ${refund.status}`));
  return refund.id;
}

/**
 * Refunds a succeeded deposit (admin only): at Stripe for a real payment, locally for a test
 * payment. The row stays locked meanwhile, so two admins cannot refund the same payment twice.
 */
export async function refundPayment(engine: FlowEngine, stripe: StripeClient, paymentId: string): Promise<Payment> {
  return engine.transaction(async (tx) => {
    const found = await tx.client.query<PaymentRow>('SELECT * FROM payment_tracking WHERE id = $1 FOR UPDATE', [paymentId]);
    const payment = found.rows[0];
    if (!payment) throw new PaymentNotFoundError();
    if (payment.status !== 'succeeded') throw new PaymentNotRefundableError(payment.status);
    let refundId: string;
    if (payment.test_mode) refundId = `re_test_${randomBytes(12).toString('hex')}`;
    else if (stripe) refundId = await refundAtStripe(stripe, payment);
    else throw new StripeNotConfiguredError();
    const refunded = await markRefunded(tx.client, paymentId, refundId);
    // the refund is an event on the deposit's journey too, in the same transaction
    if (payment.purpose === 'deposit' && payment.flow_id) await tx.applyIfAllowed(payment.flow_id, { type: 'DEPOSIT_REFUNDED' }, 'server');
    await queueRefundConfirmation(tx.client, refunded);
    return toPayment(refunded);
  });
}
