import type { FlowEngine, FlowTx } from '../flows/engine.js';
import { recordWebhookReceipt } from '../integrations/webhook-receipts.js';
import type { BookingEvent } from './booking-events.js';
import { flowOfReference } from './booking-references.js';
import {
  insertBooking,
  lockBookingByKey,
  markRescheduled,
  updateBooking,
  type MatchedBy,
  type ScheduledBooking,
} from './scheduled-bookings.js';
import type { SchedulingProvider } from './signatures.js';

/** What became of an event: applied to a flow, or why not (the provider hears 200 either way: a retry would not change it). */
export type BookingOutcome =
  | { duplicate: true }
  | { duplicate: false; applied: true; flowId: string; matchedBy: MatchedBy }
  | { duplicate: false; applied: false; reason: string };

/** Logs what could not be matched, by ids only: never the body or the address. */
interface WebhookLog {
  info: (object: object, message: string) => void;
}

type Match = { flowId: string; matchedBy: MatchedBy };
type BookingFact = Extract<BookingEvent, { kind: 'booked' | 'canceled' }>;

/**
 * The deposit flow of the one lead with this proven address whose deposit is paid and not booked
 * (lead_facts: the one definition of both); null when there is none, or more than one (testing
 * mode lets leads share an address): a booking is never guessed onto one of several.
 */
async function flowOfProvenPayer(tx: FlowTx, email: string): Promise<string | null> {
  const payers = await tx.client.query<{ flow_id: string }>(
    `SELECT f.deposit_flow_id AS flow_id
     FROM lead_facts(true, NULL, NULL,
                     ARRAY(SELECT lead_id FROM leads WHERE lower(email) = lower($1) AND email_proven_at IS NOT NULL)) f
     WHERE f.deposit = 'paid' AND f.booking <> 'booked' AND f.deposit_flow_id IS NOT NULL`,
    [email],
  );
  return payers.rows.length === 1 ? payers.rows[0]!.flow_id : null;
}

/**
 * The assessment flow a booking belongs to (decision 0046): the one its link's reference was
 * issued to; else the flow the booking (or, for a reschedule, the booking it replaces) was already
 * matched to; else, for a new booking, the deposit of the one paid, unbooked lead whose address is
 * proven. Anything else matches nothing: a flow id, or an address typed into the scheduler's page,
 * proves nothing about who booked.
 */
async function matchFlow(
  tx: FlowTx,
  event: BookingFact,
  known: ScheduledBooking | null,
  replaced: ScheduledBooking | null,
): Promise<Match | null> {
  if (event.reference) {
    const flowId = await flowOfReference(tx.client, event.reference);
    if (flowId) return { flowId, matchedBy: 'reference' };
  }
  if (known?.flow_id) return { flowId: known.flow_id, matchedBy: known.matched_by ?? 'reference' };
  if (replaced?.flow_id) return { flowId: replaced.flow_id, matchedBy: 'reschedule' };
  if (event.kind !== 'booked' || !event.email) return null;
  const flowId = await flowOfProvenPayer(tx, event.email);
  return flowId ? { flowId, matchedBy: 'email' } : null;
}

/** Keeps what the event said of its booking: a new row, or the known booking (or the one a reschedule replaces) updated. */
async function keepBooking(
  tx: FlowTx,
  provider: SchedulingProvider,
  event: BookingFact,
  row: ScheduledBooking | null,
  match: Match | null,
): Promise<void> {
  const fields = {
    bookingKey: event.bookingKey,
    status: event.kind,
    name: event.name,
    email: event.email,
    startsAt: event.startsAt,
  } as const;
  if (row) await updateBooking(tx.client, row.id, fields, match);
  else await insertBooking(tx.client, provider, fields, match);
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

/** SESSION_BOOKED or SESSION_CANCELED for a booking event, as the machine takes it. */
export function sessionEvent(provider: SchedulingProvider, event: Pick<BookingFact, 'kind' | 'startsAt' | 'canceledBy'>) {
  return event.kind === 'booked'
    ? { type: 'SESSION_BOOKED', provider, startsAt: event.startsAt }
    : { type: 'SESSION_CANCELED', provider, canceledBy: event.canceledBy };
}

/**
 * Applies a verified booking event once: its receipt, the booking kept in scheduled_bookings and
 * the flow's SESSION_BOOKED or SESSION_CANCELED commit together, so a retried or replayed delivery
 * finds the receipt and changes nothing, and a failure leaves no receipt behind (the provider
 * retries). The machine decides whether the flow takes it: only a flow on the deposit's path
 * records a booking. A booking that matches no flow is kept unmatched, for the coach to assign.
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
    if (event.kind === 'superseded') {
      const old = await lockBookingByKey(tx.client, provider, event.bookingKey);
      if (old && old.status === 'booked') await markRescheduled(tx.client, old.id);
      return { duplicate: false, applied: false, reason: 'rescheduled: the new booking follows' };
    }
    const known = await lockBookingByKey(tx.client, provider, event.bookingKey);
    const replaced = !known && event.previousKey ? await lockBookingByKey(tx.client, provider, event.previousKey) : null;
    const match = await matchFlow(tx, event, known, replaced);
    const flowEvent = sessionEvent(provider, event);
    const applied = match ? await tx.applyIfAllowed(match.flowId, flowEvent, 'server') : null;
    // a booking its flow did not take stays unmatched too: the coach sees it and decides
    await keepBooking(tx, provider, event, known ?? replaced, applied ? match : null);
    if (!match) {
      log.info({ provider, eventId: event.eventId }, 'booking event matches no assessment flow; kept unmatched for the coach');
      return { duplicate: false, applied: false, reason: 'no assessment flow matches the booking: kept for the coach to assign' };
    }
    if (!applied) return { duplicate: false, applied: false, reason: `the flow does not take ${flowEvent.type} where it is` };
    if (event.kind === 'canceled' && event.canceledBy === 'coach' && coachCancellation === 'refund')
      await queueDepositRefund(tx, match.flowId);
    return { duplicate: false, applied: true, ...match };
  });
}
