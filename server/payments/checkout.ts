import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type Stripe from 'stripe';
import { DEPOSIT_AMOUNT_CENTS, paymentFailureNotices } from '../../machines/payment/payment.machine.js';
import { paymentPurposeSchema, type PaymentPurpose } from '../../machines/protocol/payment.js';
import type { FlowEngine } from '../flows/engine.js';
import { scheduleEvent } from '../flows/effects.js';
import { FlowNotFoundError } from '../flows/flow-store.js';

/** Spec section 4: "the test payment ... calls success after 1 s". */
const TEST_PAYMENT_SETTLE_MS = 1000;
const CURRENCY = 'usd';
const PRODUCT_NAME = 'Refundable Deposit (100% refundable)';
const PRODUCT_DESCRIPTION = 'A $250 deposit for your leadership strategy session, 100% refundable.';

/** The flow is not waiting for a payment, or cannot pay yet. */
export class NotAwaitingPaymentError extends Error {
  readonly statusCode = 409;
  constructor(message: string) {
    super(message);
    this.name = 'NotAwaitingPaymentError';
  }
}

/** Stripe did not open a checkout; `cause` holds what it said, for the log only. */
export class CheckoutStartError extends Error {
  readonly statusCode = 502;
  constructor(cause: unknown) {
    // the spec's words, shown to the visitor as they are
    super(paymentFailureNotices.start_failed.description!, { cause });
    this.name = 'CheckoutStartError';
  }
}

/** What a payment needs from the flow standing at `payment`. */
interface PaymentFlow {
  flowId: string;
  version: number;
  purpose: PaymentPurpose;
  leadId: string;
  email: string | null;
}

interface FlowContextRow {
  machine: string;
  state: string;
  version: number;
  context: { paymentPurpose?: unknown; session?: { leadId?: string | null; email?: string | null } } | null;
}

/** The flow, if it stands at `payment` with a lead; FlowNotFoundError or NotAwaitingPaymentError otherwise. */
async function readPaymentFlow(db: pg.Pool | pg.ClientBase, flowId: string, options: { lock: boolean }): Promise<PaymentFlow> {
  const found = await db.query<FlowContextRow>(
    `SELECT machine, state, version, snapshot->'context' AS context FROM flows WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`,
    [flowId],
  );
  const row = found.rows[0];
  if (!row) throw new FlowNotFoundError(flowId);
  if (row.machine !== 'assessmentFlow' || row.state !== 'payment') {
    throw new NotAwaitingPaymentError(`This flow is not waiting for a payment (it is at ${row.state}); choose the deposit first.`);
  }
  const leadId = row.context?.session?.leadId;
  if (!leadId) throw new NotAwaitingPaymentError('No lead ID found. Please complete email capture first.');
  return {
    flowId,
    version: row.version,
    // both ways into `payment` set the purpose; the machine's own fallback is the deposit
    purpose: paymentPurposeSchema.catch('deposit').parse(row.context?.paymentPurpose),
    leadId,
    email: row.context?.session?.email ?? null,
  };
}

function checkoutParams(flow: PaymentFlow, publicUrl: string): Stripe.Checkout.SessionCreateParams {
  const metadata = { leadId: flow.leadId, flowId: flow.flowId, purpose: flow.purpose };
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
    ...(flow.email && { customer_email: flow.email }),
    metadata,
    // on the payment intent too, so charges and refunds seen on their own still name their flow
    payment_intent_data: { metadata },
    success_url: `${publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}&flow=${flow.flowId}`,
    cancel_url: `${publicUrl}/payment-canceled?flow=${flow.flowId}`,
  };
}

/**
 * Opens a Stripe Checkout for the $250 deposit and tracks it as pending; the webhook settles it.
 * The idempotency key is the flow at its current version, so a double click gets the same
 * session (and the same tracking row) instead of a second one; a new attempt after a failure
 * comes at a later version and gets a new session.
 */
export async function startCheckout(stripe: Stripe, pool: pg.Pool, publicUrl: string, flowId: string): Promise<{ url: string }> {
  // no lock: the flow must stay free for other events while Stripe answers
  const flow = await readPaymentFlow(pool, flowId, { lock: false });
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(checkoutParams(flow, publicUrl), {
      idempotencyKey: `checkout-${flow.flowId}-v${flow.version}`,
    });
  } catch (error) {
    throw new CheckoutStartError(error);
  }
  if (!session.url) throw new CheckoutStartError(new Error(`checkout session ${session.id} has no url`));
  await pool.query(
    `INSERT INTO payment_tracking (checkout_session_id, status, lead_id, flow_id, purpose, amount_cents, currency)
     VALUES ($1, 'pending', $2, $3, $4, $5, $6) ON CONFLICT (checkout_session_id) DO NOTHING`,
    [session.id, flow.leadId, flow.flowId, flow.purpose, DEPOSIT_AMOUNT_CENTS, CURRENCY],
  );
  return { url: session.url };
}

/**
 * Test-payment mode (no Stripe key): records a succeeded test payment and, in the same
 * transaction, schedules PAYMENT_CONFIRMED one second later. A repeated call while the flow still
 * waits reuses the payment and schedules again; a second confirmation finds the flow moved on and
 * is skipped.
 */
export async function recordTestPayment(engine: FlowEngine, flowId: string): Promise<{ paymentIntentId: string }> {
  return engine.transaction(async (tx) => {
    const flow = await readPaymentFlow(tx.client, flowId, { lock: true });
    const existing = await tx.client.query<{ payment_intent_id: string }>(
      "SELECT payment_intent_id FROM payment_tracking WHERE flow_id = $1 AND test_mode AND status = 'succeeded' AND purpose = $2",
      [flowId, flow.purpose],
    );
    let paymentIntentId = existing.rows[0]?.payment_intent_id;
    if (!paymentIntentId) {
      paymentIntentId = `pi_test_${randomBytes(12).toString('hex')}`;
      await tx.client.query(
        `INSERT INTO payment_tracking (payment_intent_id, status, test_mode, lead_id, flow_id, purpose, amount_cents, currency)
         VALUES ($1, 'succeeded', true, $2, $3, $4, $5, $6)`,
        [paymentIntentId, flow.leadId, flowId, flow.purpose, DEPOSIT_AMOUNT_CENTS, CURRENCY],
      );
    }
    const confirmed = { type: 'PAYMENT_CONFIRMED', paymentIntentId };
    await scheduleEvent(tx, flowId, confirmed, TEST_PAYMENT_SETTLE_MS);
    return { paymentIntentId };
  });
}
