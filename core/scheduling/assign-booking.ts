import type pg from 'pg';
import type { FlowEngine } from '../flows/engine.js';
import { HttpError } from '../http-error.js';
import { assignBookingToFlow, lockBooking } from './scheduled-bookings.js';
import { sessionEvent } from './webhook.js';

/** An unmatched booking as the lead page lists it; `resembles` when its address or name is the lead's. */
export interface UnmatchedBooking {
  id: string;
  provider: 'calendly' | 'calcom';
  bookingKey: string;
  name: string | null;
  email: string | null;
  startsAt: Date | null;
  receivedAt: Date;
  resembles: boolean;
}

/** At most this many: recent unmatched bookings are a handful; older ones are the scheduler's to search. */
const LIST_LIMIT = 50;

/**
 * The unmatched bookings still booked (decision 0046), those resembling the lead first (the same
 * address, or the same name, ignoring case and spaces), then the newest; null for no such lead.
 */
export async function unmatchedBookingsFor(db: pg.Pool, leadId: string): Promise<UnmatchedBooking[] | null> {
  const lead = await db.query<{ email: string; name: string }>('SELECT email, name FROM leads WHERE lead_id = $1', [leadId]);
  if (!lead.rows[0]) return null;
  const { email, name } = lead.rows[0];
  const found = await db.query<UnmatchedBooking>(
    `SELECT id, provider, booking_key AS "bookingKey", name, email, starts_at AS "startsAt", created_at AS "receivedAt",
            (lower(email) = lower($1) OR lower(regexp_replace(name, '\\s+', ' ', 'g')) = lower(regexp_replace($2, '\\s+', ' ', 'g')))
              IS TRUE AS resembles
     FROM (SELECT * FROM scheduled_bookings WHERE flow_id IS NULL AND status = 'booked' ORDER BY created_at DESC LIMIT ${LIST_LIMIT}) b
     ORDER BY resembles DESC, "receivedAt" DESC`,
    [email, name.trim()],
  );
  return found.rows;
}

/**
 * The coach assigns an unmatched booking to a lead: the booking is applied as SESSION_BOOKED on
 * the lead's paid deposit flow through the machine, as a matched booking would be, and the booking
 * is marked matched, in one transaction. 404 for no such booking or lead; 409 when the booking was
 * matched or cancelled meanwhile, the lead has no paid deposit, or its flow does not take a booking.
 */
export async function assignBooking(engine: FlowEngine, bookingId: string, leadId: string): Promise<{ flowId: string }> {
  return engine.transaction(async (tx) => {
    const booking = await lockBooking(tx.client, bookingId);
    if (!booking) throw new HttpError(404, `No unmatched booking with id ${bookingId}`);
    if (booking.flow_id || booking.status !== 'booked') {
      throw new HttpError(409, 'This booking is no longer unmatched: it was assigned, cancelled or rescheduled since.');
    }
    const lead = await tx.client.query<{ deposit: string; flow_id: string | null }>(
      'SELECT deposit, deposit_flow_id AS flow_id FROM lead_facts(true, NULL, NULL, ARRAY[$1::uuid])',
      [leadId],
    );
    if (!lead.rows[0]) throw new HttpError(404, `No lead with id ${leadId}`);
    const flowId = lead.rows[0].flow_id;
    if (lead.rows[0].deposit !== 'paid' || !flowId) throw new HttpError(409, 'This lead has no paid deposit to book a session on.');
    const startsAt = booking.starts_at?.toISOString() ?? null;
    const applied = await tx.applyIfAllowed(
      flowId,
      sessionEvent(booking.provider, { kind: 'booked', startsAt, canceledBy: null }),
      'server',
    );
    if (!applied) throw new HttpError(409, "This lead's journey does not take a booking where it is (a session may be booked already).");
    if (!(await assignBookingToFlow(tx.client, booking.id, flowId))) throw new HttpError(409, 'This booking is no longer unmatched.');
    return { flowId };
  });
}
