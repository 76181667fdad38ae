import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type Stripe from 'stripe';
import { DEPOSIT_AMOUNT_CENTS, paymentFailureNotices, type PaymentPurpose } from '#machines/protocol/payment.js';
import type { FlowTx } from '../flows/engine.js';
import { scheduleEvent } from '../flows/effects.js';
import { trackPendingCheckout, trackTestPayment, type NewPayment } from './payment-tracking.js';
import { loadStripe } from './stripe-client.js';

/** "the test payment ... calls success after 1 s". */
const TEST_PAYMENT_SETTLE_MS = 1000;
const CURRENCY = 'usd';
const PRODUCT_NAME = 'Refundable Deposit (100% refundable)';
const PRODUCT_DESCRIPTION = 'A $250 deposit for your leadership strategy session, 100% refundable.';

/** One payment attempt: the flow's entry into `payment`, started by one payments job. */
export interface PaymentAttempt {
  flowId: string;
  /** The payments job row; the Stripe idempotency key, so a retried job reuses its session. */
  jobId: string;
  purpose: PaymentPurpose;
  leadId: string;
  email: string | null;
}

/** Stripe did not open a checkout; `cause` holds what it said, for the log only. */
export class CheckoutStartError extends Error {
  constructor(
    cause: unknown,
    /** Trying again cannot help (a refused request, a bad key), as opposed to a network or Stripe outage. */
    readonly final: boolean,
  ) {
    // the product's words, shown to the visitor as they are
    super(paymentFailureNotices.start_failed.description!, { cause });
    this.name = 'CheckoutStartError';
  }
}

/** Stripe's errors worth another attempt: it could not be reached, failed itself, or asked us to slow down. */
function isTransient(StripeClass: typeof Stripe, error: unknown): boolean {
  const errors = StripeClass.errors;
  return (
    error instanceof errors.StripeConnectionError ||
    error instanceof errors.StripeAPIError ||
    error instanceof errors.StripeRateLimitError ||
    !(error instanceof errors.StripeError)
  );
}

function checkoutParams(attempt: PaymentAttempt, publicUrl: string): Stripe.Checkout.SessionCreateParams {
  const metadata = { leadId: attempt.leadId, flowId: attempt.flowId, purpose: attempt.purpose };
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: CURRENCY,
          unit_amount: DEPOSIT_AMOUNT_CENTS,
          product_data: { name: PRODUCT_NAME, description: PRODUCT_DESCRIPTION },
        },
      },
    ],
    ...(attempt.email && { customer_email: attempt.email }),
    metadata,
    // on the payment intent too, so charges and refunds seen on their own still name their flow
    payment_intent_data: { metadata },
    success_url: `${publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}&flow=${attempt.flowId}`,
    cancel_url: `${publicUrl}/payment-canceled?flow=${attempt.flowId}`,
  };
}

/**
 * Opens a Stripe Checkout for the $250 deposit. The idempotency key is the attempt's job row, so a
 * retried job (a crash, a lost answer) gets the same session back instead of a second one; a new
 * attempt is a new job and gets a new session. CheckoutStartError says whether to retry.
 */
export async function openCheckout(
  stripe: Stripe,
  publicUrl: string,
  attempt: PaymentAttempt,
): Promise<{ sessionId: string; url: string }> {
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(checkoutParams(attempt, publicUrl), { idempotencyKey: `checkout-${attempt.jobId}` });
  } catch (error) {
    throw new CheckoutStartError(error, !isTransient(await loadStripe(), error));
  }
  if (!session.url) throw new CheckoutStartError(new Error(`checkout session ${session.id} has no url`), true);
  return { sessionId: session.id, url: session.url };
}

/** What an attempt pays: the deposit. */
function deposit(attempt: PaymentAttempt): NewPayment {
  return {
    leadId: attempt.leadId,
    flowId: attempt.flowId,
    purpose: attempt.purpose,
    amountCents: DEPOSIT_AMOUNT_CENTS,
    currency: CURRENCY,
  };
}

/** Tracks an opened checkout as pending; the webhook settles it. */
export async function trackCheckout(db: pg.ClientBase, attempt: PaymentAttempt, sessionId: string): Promise<void> {
  await trackPendingCheckout(db, sessionId, deposit(attempt));
}

/**
 * Test-payment mode (no Stripe key): records a succeeded test payment and, in the same
 * transaction, schedules PAYMENT_CONFIRMED one second later. A flow that pays again (after a
 * cancel) reuses its test payment for the same purpose; a confirmation that finds the flow moved
 * on is skipped.
 */
export async function recordTestPayment(tx: FlowTx, attempt: PaymentAttempt): Promise<{ paymentIntentId: string }> {
  const existing = await tx.client.query<{ payment_intent_id: string }>(
    "SELECT payment_intent_id FROM payment_tracking WHERE flow_id = $1 AND test_mode AND status = 'succeeded' AND purpose = $2",
    [attempt.flowId, attempt.purpose],
  );
  let paymentIntentId = existing.rows[0]?.payment_intent_id;
  if (!paymentIntentId) {
    paymentIntentId = `pi_test_${randomBytes(12).toString('hex')}`;
    await trackTestPayment(tx.client, paymentIntentId, deposit(attempt));
  }
  const confirmed = { type: 'PAYMENT_CONFIRMED', paymentIntentId };
  await scheduleEvent(tx, { id: attempt.flowId, machine: 'assessmentFlow' }, confirmed, TEST_PAYMENT_SETTLE_MS);
  return { paymentIntentId };
}
