import type { FlowEngine, FlowTx } from '../flows/engine.js';
import { recordWebhookReceipt } from '../integrations/webhook-receipts.js';
import type { BookingEvent } from './booking-events.js';
import type { SchedulingProvider } from './signatures.js';

/** What became of an event: applied to a flow, or why not (the provider hears 200 either way: a retry would not change it). */
export type BookingOutcome =
  | { duplicate: true }
  | { duplicate: false; applied: true; flowId: string; matchedBy: 'reference' | 'email' }
  | { duplicate: false; applied: false; reason: string };

/** Logs what could not be matched, by ids only: never the body or the address. */
interface WebhookLog {
  info: (object: object, message: string) => void;
}

/**
 * The assessment flow a booking belongs to: the one its link named (the flow id it carried), else
 * the newest flow with a paid deposit of the lead with that address (a booking made from a link
 * without the reference, such as the coach's public page).
 */
async function matchFlow(tx: FlowTx, event: Extract<BookingEvent, { kind: 'booked' | 'canceled' }>) {
  if (event.reference) {
    const named = await tx.client.query<{ id: string }>("SELECT id FROM flows WHERE id = $1 AND machine = 'assessmentFlow'", [
      event.reference,
    ]);
    if (named.rows[0]) return { flowId: named.rows[0].id, matchedBy: 'reference' as const };
  }
  if (!event.email) return null;
  const paid = await tx.client.query<{ id: string }>(
    `SELECT f.id FROM leads l
     JOIN flows f ON f.lead_id = l.lead_id AND f.machine = 'assessmentFlow'
     JOIN payment_tracking p ON p.flow_id = f.id AND p.purpose = 'deposit' AND p.status = 'succeeded'
     WHERE lower(l.email) = lower($1)
     ORDER BY p.created_at DESC LIMIT 1`,
    [event.email],
  );
  return paid.rows[0] ? { flowId: paid.rows[0].id, matchedBy: 'email' as const } : null;
}

/**
 * The coach cancelled a paid session and the policy is to refund: a payments job refunds the
 * flow's deposit (at Stripe, retried with backoff), committed with the cancellation. Under the
 * `flag` policy the deposit waits on the Overview's Needs attention list for the coach's decision.
 */
async function queueDepositRefund(tx: FlowTx, flowId: string): Promise<void> {
  const paid = await tx.client.query<{ id: string; lead_id: string | null }>(
    "SELECT id, lead_id FROM payment_tracking WHERE flow_id = $1 AND purpose = 'deposit' AND status = 'succeeded' ORDER BY created_at DESC LIMIT 1",
    [flowId],
  );
  const payment = paid.rows[0];
  if (!payment) return;
  await tx.insertJob({ queue: 'payments', name: 'refund-deposit', payload: { paymentId: payment.id }, flowId, leadId: payment.lead_id });
}

/**
 * Applies a verified booking event once: its receipt and the flow's SESSION_BOOKED or
 * SESSION_CANCELED commit together, so a retried or replayed delivery finds the receipt and changes
 * nothing, and a failure leaves no receipt behind (the provider retries). The machine decides
 * whether the flow takes it: only a flow on the deposit's path records a booking.
 */
export async function handleBookingEvent(
  engine: FlowEngine,
  provider: SchedulingProvider,
  event: BookingEvent,
  log: WebhookLog,
  coachCancellation: 'flag' | 'refund',
): Promise<BookingOutcome> {
  return engine.transaction(async (tx) => {
    if (!(await recordWebhookReceipt(tx.client, provider, event.eventId, event.type.slice(0, 80)))) return { duplicate: true };
    if (event.kind === 'ignored') return { duplicate: false, applied: false, reason: event.reason };
    const match = await matchFlow(tx, event);
    if (!match) {
      log.info({ provider, eventId: event.eventId }, 'booking event matches no assessment flow; recorded and ignored');
      return { duplicate: false, applied: false, reason: 'no assessment flow matches the reference or the address' };
    }
    const flowEvent =
      event.kind === 'booked'
        ? { type: 'SESSION_BOOKED', provider, startsAt: event.startsAt }
        : { type: 'SESSION_CANCELED', provider, canceledBy: event.canceledBy };
    const applied = await tx.applyIfAllowed(match.flowId, flowEvent, 'server');
    if (!applied) return { duplicate: false, applied: false, reason: `the flow does not take ${flowEvent.type} where it is` };
    if (event.kind === 'canceled' && event.canceledBy === 'coach' && coachCancellation === 'refund')
      await queueDepositRefund(tx, match.flowId);
    return { duplicate: false, applied: true, ...match };
  });
}
