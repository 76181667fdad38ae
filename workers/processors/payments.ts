import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import { z } from 'zod';
import { paymentPurposeSchema } from '#machines/protocol/payment.js';
import type { Config } from '#core/config/index.js';
import { CheckoutStartError, openCheckout, recordTestPayment, trackCheckout, type PaymentAttempt } from '#core/payments/checkout.js';
import { PaymentNotRefundableError, refundPayment } from '#core/payments/refund.js';
import { createStripeClient, stripeErrorSummary, type StripeClient } from '#core/payments/stripe-client.js';
import type { FlowEngine } from '#core/flows/engine.js';
import type { QueueProcessor } from './processor.js';

/** A payments job is always a flow's: its startPayment effect wrote it as the flow entered `payment`. */
const flowIdSchema = z.object({ flowId: z.uuid(), enteredAt: z.number().int().min(1) });

// `payment` is entered only from yes_flow or maybe_flow, which a flow reaches only with its lead.
const payloadSchema = flowIdSchema.extend({
  request: z.object({ purpose: paymentPurposeSchema, leadId: z.uuid(), email: z.string().nullable() }),
});

/** The events that enter `payment`: the flow's current attempt began with the latest of them. */
const PAYMENT_CHOICES = ['PAY_DEPOSIT', 'PAY_FOR_HOMEWORK'];

/**
 * Whether the attempt that entered `payment` at version `enteredAt` is still the flow's current
 * one: the flow waits at payment and was not canceled and paid again since. With `lock`, the flow
 * row stays locked until the transaction ends, so no later attempt can begin meanwhile.
 */
async function isCurrentAttempt(db: pg.ClientBase | pg.Pool, flowId: string, enteredAt: number, lock = false): Promise<boolean> {
  const found = await db.query<{ current: boolean }>(
    `SELECT f.state = 'payment' AND
            (SELECT max(e.seq) FROM flow_events e WHERE e.flow_id = f.id AND e.type = ANY($3::text[])) = $2 AS current
     FROM flows f WHERE f.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [flowId, enteredAt, PAYMENT_CHOICES],
  );
  return found.rows[0]?.current === true;
}

const REFUND_JOB = 'refund-deposit';

const stripeClients = new WeakMap<Config, StripeClient>();

/** One Stripe client per configuration (null in test-payment mode), kept for the worker's life. */
function stripeFor(config: Config): StripeClient {
  if (!stripeClients.has(config)) stripeClients.set(config, createStripeClient(config));
  return stripeClients.get(config)!;
}

/** A deposit refunded because the coach cancelled its session (core/scheduling/webhook.ts, policy `refund`). */
const refundSchema = z.object({ paymentId: z.uuid() });

async function refundDeposit(payload: unknown, engine: FlowEngine, config: Config) {
  const { paymentId } = refundSchema.parse(payload);
  try {
    const refunded = await refundPayment(engine, stripeFor(config), paymentId);
    return { refunded: refunded.id };
  } catch (error) {
    // refunded meanwhile (by the coach, or a retry after Stripe answered): nothing left to do
    if (error instanceof PaymentNotRefundableError) return { skipped: error.message };
    throw error;
  }
}

/**
 * startPayment, and refund-deposit (a session the coach cancelled, under the refund policy).
 * startPayment in test-payment mode: a succeeded test payment and PAYMENT_CONFIRMED one second
 * later. With Stripe: a Checkout Session keyed by this job's row (a retry gets the same session),
 * tracked as pending, and CHECKOUT_OPENED with its url for the visitor's browser; the webhook
 * settles it. An attempt the visitor has since left (canceled, or
 * chose again) is skipped: its url would go to a checkout no one waits for.
 */
export const paymentsProcessor: QueueProcessor = {
  process: async (job, { pool, config, engine }) => {
    if (job.name === REFUND_JOB) return refundDeposit(job.data.payload, engine, config);
    const parsed = payloadSchema.safeParse(job.data.payload);
    if (!parsed.success) throw new UnrecoverableError(`Unusable payments payload: ${parsed.error.message}`);
    const { flowId, enteredAt, request } = parsed.data;
    const attempt: PaymentAttempt = { flowId, jobId: job.data.jobRowId, ...request };
    const stripe = stripeFor(config);

    if (!stripe) {
      return engine.transaction(async (tx) => {
        if (!(await isCurrentAttempt(tx.client, flowId, enteredAt, true))) return { skipped: 'the flow no longer waits for this payment' };
        const { paymentIntentId } = await recordTestPayment(tx, attempt);
        return { testPayment: paymentIntentId };
      });
    }

    if (!(await isCurrentAttempt(pool, flowId, enteredAt))) return { skipped: 'the flow no longer waits for this payment' };
    let checkout: { sessionId: string; url: string };
    try {
      checkout = await openCheckout(await stripe(), config.publicUrl, attempt);
    } catch (error) {
      if (!(error instanceof CheckoutStartError)) throw error;
      // what Stripe said goes to the job's error for the coach (never the key: Stripe masks it); the visitor hears the product's words
      const detail = `Stripe did not open the checkout: ${JSON.stringify(stripeErrorSummary(error.cause))}`;
      throw error.final ? new UnrecoverableError(detail) : new Error(detail);
    }
    return engine.transaction(async (tx) => {
      // tracked only while current: a stale session, never shown, must not look like the latest attempt
      if (!(await isCurrentAttempt(tx.client, flowId, enteredAt, true)))
        return { skipped: 'the flow no longer waits for this payment', checkoutSessionId: checkout.sessionId };
      await trackCheckout(tx.client, attempt, checkout.sessionId);
      const flow = await tx.apply(flowId, { type: 'CHECKOUT_OPENED', url: checkout.url }, 'worker');
      return { checkoutSessionId: checkout.sessionId, flowState: flow.state };
    });
  },
  // A checkout that could not be started, for good: the flow goes back to its next step with the product's notice.
  onExhausted: async (job, { config, engine }) => {
    // an unmade refund leaves the deposit paid, on the Overview's Needs attention list
    if (job.name === REFUND_JOB) return;
    const { flowId, enteredAt } = flowIdSchema.parse(job.data.payload);
    const reason = stripeFor(config) ? 'start_failed' : 'test_failed';
    await engine.transaction(async (tx) => {
      if (await isCurrentAttempt(tx.client, flowId, enteredAt, true)) await tx.apply(flowId, { type: 'PAYMENT_FAILED', reason }, 'worker');
    });
  },
};
