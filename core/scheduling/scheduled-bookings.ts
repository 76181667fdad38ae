import type pg from 'pg';
import type { SchedulingProvider } from './signatures.js';

/*
 * The one writer of scheduled_bookings (core/db/table-owners.ts, decision 0046): every booking the
 * scheduling provider reported, matched to a flow or not. An unmatched one (flow_id NULL) waits
 * for the coach to assign it from a lead's page; a cancellation or reschedule finds its booking
 * here by the provider's own id of it.
 */

type Db = Pick<pg.ClientBase, 'query'>;

export type BookingStatus = 'booked' | 'canceled' | 'rescheduled';
export type MatchedBy = 'reference' | 'email' | 'reschedule' | 'coach';

export interface ScheduledBooking {
  id: string;
  provider: SchedulingProvider;
  booking_key: string;
  flow_id: string | null;
  matched_by: MatchedBy | null;
  status: BookingStatus;
  name: string | null;
  email: string | null;
  starts_at: Date | null;
  created_at: Date;
}

/** What an event said of a booking, as kept. */
export interface BookingFields {
  bookingKey: string;
  status: BookingStatus;
  name: string | null;
  email: string | null;
  startsAt: string | null;
}

const COLUMNS = 'id, provider, booking_key, flow_id, matched_by, status, name, email, starts_at, created_at';

/** The booking the provider knows by `key`, locked for the transaction that changes it. */
export async function lockBookingByKey(db: Db, provider: SchedulingProvider, key: string): Promise<ScheduledBooking | null> {
  const found = await db.query<ScheduledBooking>(
    `SELECT ${COLUMNS} FROM scheduled_bookings WHERE provider = $1 AND booking_key = $2 FOR UPDATE`,
    [provider, key],
  );
  return found.rows[0] ?? null;
}

/** A booking by its id, locked; null when there is none. */
export async function lockBooking(db: Db, id: string): Promise<ScheduledBooking | null> {
  const found = await db.query<ScheduledBooking>(`SELECT ${COLUMNS} FROM scheduled_bookings WHERE id = $1 FOR UPDATE`, [id]);
  return found.rows[0] ?? null;
}

/** Keeps a booking not seen before, matched to a flow or not. */
export async function insertBooking(
  db: Db,
  provider: SchedulingProvider,
  fields: BookingFields,
  match: { flowId: string; matchedBy: MatchedBy } | null,
): Promise<void> {
  await db.query(
    `INSERT INTO scheduled_bookings (provider, booking_key, flow_id, matched_by, status, name, email, starts_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      provider,
      fields.bookingKey,
      match?.flowId ?? null,
      match?.matchedBy ?? null,
      fields.status,
      fields.name,
      fields.email,
      fields.startsAt,
    ],
  );
}

/**
 * Updates a known booking with what a later event said: its new status, and for a reschedule its
 * new key and time (one row per booking, however often it moves). A booking's flow, once matched,
 * stays; an unmatched one takes the match the event found.
 */
export async function updateBooking(
  db: Db,
  id: string,
  fields: BookingFields,
  match: { flowId: string; matchedBy: MatchedBy } | null,
): Promise<void> {
  await db.query(
    `UPDATE scheduled_bookings
     SET booking_key = $2, status = $3, name = coalesce($4, name), email = coalesce($5, email), starts_at = coalesce($6, starts_at),
         flow_id = coalesce(flow_id, $7), matched_by = CASE WHEN flow_id IS NULL THEN $8 ELSE matched_by END, updated_at = now()
     WHERE id = $1`,
    [id, fields.bookingKey, fields.status, fields.name, fields.email, fields.startsAt, match?.flowId ?? null, match?.matchedBy ?? null],
  );
}

/** Marks a booking replaced by a reschedule whose new booking has not arrived yet. */
export async function markRescheduled(db: Db, id: string): Promise<void> {
  await db.query("UPDATE scheduled_bookings SET status = 'rescheduled', updated_at = now() WHERE id = $1", [id]);
}

/** The coach's assignment of an unmatched booking to a flow: false when it was matched or cancelled meanwhile. */
export async function assignBookingToFlow(db: Db, id: string, flowId: string): Promise<boolean> {
  const assigned = await db.query(
    `UPDATE scheduled_bookings SET flow_id = $2, matched_by = 'coach', updated_at = now()
     WHERE id = $1 AND flow_id IS NULL AND status = 'booked'`,
    [id, flowId],
  );
  return assigned.rowCount === 1;
}

/** A data-protection delete of a lead: the unmatched bookings made with its address go with it (matched ones go with its flows). */
export async function deleteUnmatchedBookingsFor(db: Db, email: string): Promise<void> {
  await db.query('DELETE FROM scheduled_bookings WHERE flow_id IS NULL AND lower(email) = lower($1)', [email]);
}
