import type Stripe from 'stripe';
import type { PaymentFailureReason } from '#machines/protocol/payment.js';
import type { FlowEngine, FlowTx } from '../flows/engine.js';
import { recordWebhookReceipt } from '../integrations/webhook-receipts.js';
import { queueRefundConfirmation } from './payment-emails.js';
import { endPendingCheckout, recordRefundAtStripe, settlePaidCheckout } from './payment-tracking.js';
import { loadStripe } from './stripe-client.js';

/** Logs what the handler could not match; never the event body. */
interface WebhookLog {
  warn: (object: object, message: string) => void;
}

/** How far a signature's timestamp may be from now, either way: Stripe's default, 5 minutes. */
const STRIPE_TOLERANCE_SECONDS = 300;

/** The signature or the configuration does not let the request be trusted. */
export class WebhookSignatureError extends Error {
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * The event Stripe signed, checked against the raw body exactly as it arrived (a re-serialised
 * body would not match the signature); WebhookSignatureError when it cannot be trusted.
 */
export async function verifiedStripeEvent(
  rawBody: Buffer,
  signature: string | string[] | undefined,
  secret: string | undefined,
): Promise<Stripe.Event> {
  if (!secret) throw new WebhookSignatureError('Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET is not set).');
  if (typeof signature !== 'string' || !signature) throw new WebhookSignatureError('Missing Stripe-Signature header.');
  const StripeClass = await loadStripe();
  let event: Stripe.Event;
  try {
    event = StripeClass.webhooks.constructEvent(rawBody, signature, secret, STRIPE_TOLERANCE_SECONDS);
  } catch {
    throw new WebhookSignatureError("Invalid Stripe-Signature: the webhook was not signed with this server's secret, or is too old.");
  }
  // Stripe's library refuses only old timestamps; one from the future is as untrustworthy (a
  // signature captured now could otherwise be replayed until that time comes)
  const signedAt = Number(/(?:^|,)t=(\d+)(?:,|$)/.exec(signature)?.[1]);
  if (signedAt - Date.now() / 1000 > STRIPE_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError('Invalid Stripe-Signature: its timestamp is in the future.');
  }
  return event;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  return typeof value === 'string' ? value : (value?.id ?? null);
}

/** A paid checkout: the tracked payment succeeds and its flow, if still waiting, is confirmed. */
async function confirmCheckout(tx: FlowTx, session: Stripe.Checkout.Session, log: WebhookLog): Promise<void> {
  // a delayed payment method completes unpaid; async_payment_succeeded or _failed follows
  if (session.payment_status !== 'paid') return;
  const paymentIntentId = idOf(session.payment_intent);
  if (!paymentIntentId) {
    log.warn({ checkoutSessionId: session.id }, 'paid checkout session without a payment intent; ignored');
    return;
  }
  const settled = await settlePaidCheckout(tx.client, session.id, paymentIntentId);
  if (!settled) {
    log.warn({ checkoutSessionId: session.id }, 'paid checkout session is not a pending tracked payment; ignored');
    return;
  }
  const { flowId } = settled;
  if (flowId) {
    const confirmed = { type: 'PAYMENT_CONFIRMED', paymentIntentId };
    await tx.applyIfAllowed(flowId, confirmed, 'server');
  }
}

/**
 * A checkout that ended without money: the tracked payment is marked, and its flow, if it still
 * waits on this checkout (not on a newer attempt), fails with `reason`.
 */
async function endCheckout(
  tx: FlowTx,
  session: Stripe.Checkout.Session,
  status: 'failed' | 'canceled',
  reason: PaymentFailureReason,
): Promise<void> {
  const ended = await endPendingCheckout(tx.client, session.id, status);
  if (ended?.flowId && ended.latest) {
    const failed = { type: 'PAYMENT_FAILED', reason };
    await tx.applyIfAllowed(ended.flowId, failed, 'server');
  }
}

/** A fully refunded charge (a refund made in the Stripe dashboard, or ours confirmed). */
async function recordRefund(tx: FlowTx, charge: Stripe.Charge): Promise<void> {
  // a partial refund leaves the deposit paid
  if (!charge.refunded) return;
  const paymentIntentId = idOf(charge.payment_intent);
  if (!paymentIntentId) return;
  const refunded = await recordRefundAtStripe(tx.client, paymentIntentId, charge.refunds?.data[0]?.id ?? null);
  // our own refund was recorded (and confirmed to the lead) when it was made: only a new one is
  for (const payment of refunded) await queueRefundConfirmation(tx.client, payment);
}

async function applyStripeEvent(tx: FlowTx, event: Stripe.Event, log: WebhookLog): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return confirmCheckout(tx, event.data.object, log);
    case 'checkout.session.expired':
      return endCheckout(tx, event.data.object, 'canceled', 'canceled');
    case 'checkout.session.async_payment_failed':
      return endCheckout(tx, event.data.object, 'failed', 'verification_failed');
    case 'charge.refunded':
      return recordRefund(tx, event.data.object);
    default:
    // other event types are recorded as received and otherwise ignored
  }
}

/**
 * Processes a verified event once: its receipt and its effects commit together, so a retried or
 * replayed event finds the receipt and changes nothing, and a failure leaves no receipt behind
 * (Stripe retries it).
 */
export async function handleStripeEvent(engine: FlowEngine, event: Stripe.Event, log: WebhookLog): Promise<{ duplicate: boolean }> {
  return engine.transaction(async (tx) => {
    if (!(await recordWebhookReceipt(tx.client, 'stripe', event.id, event.type))) return { duplicate: true };
    await applyStripeEvent(tx, event, log);
    return { duplicate: false };
  });
}
