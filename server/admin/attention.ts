import type pg from 'pg';
import type { NeedsAttention } from '#machines/protocol/admin/attention.js';

/** At most this many rows: the list is a to-do, not a report. */
const LIMIT = 50;

/**
 * Deposits that need the coach, from lead_facts (all time: a to-do does not expire with a period):
 * a paid deposit not booked once its reminder to book went out, or whose session the coach
 * cancelled (flag policy; under the refund policy it is refunded at once); and a refunded deposit
 * whose session is still booked at the scheduler, which only the coach can cancel there.
 * Each case needs a deposit with its flow (booking and the reminder are read from that flow), so
 * `deposit_flow_id IS NOT NULL` changes no row; it lets PostgreSQL start from the few deposits
 * instead of reading every lead's facts (234 ms to about 120 ms at p95 at 100,000 leads).
 */
export async function fetchNeedsAttention(db: pg.Pool, includeTest: boolean): Promise<NeedsAttention> {
  const { rows } = await db.query<NeedsAttention['items'][number]>(
    `SELECT * FROM (
       SELECT f.lead_id AS "leadId", f.name, f.email, f.deposit_cents AS "amountCents", f.deposit_paid_at AS "paidAt",
              CASE WHEN f.deposit = 'refunded' THEN 'refunded_booked'
                   WHEN f.session_canceled AND f.session_canceled_by = 'coach' THEN 'coach_canceled'
                   ELSE 'not_booked' END AS reason,
              CASE WHEN f.deposit = 'paid' AND f.session_canceled AND f.session_canceled_by = 'coach' THEN f.session_changed_at END AS "canceledAt",
              f.deposit_refunded_at AS "refundedAt",
              CASE WHEN f.deposit = 'refunded' THEN f.session_starts_at END AS "sessionStartsAt"
       FROM lead_facts($1) f
       WHERE f.deposit_flow_id IS NOT NULL
         AND ((f.deposit = 'refunded' AND f.booking = 'booked')
          OR (f.deposit = 'paid' AND f.booking <> 'booked'
              AND (f.reminded_to_book OR (f.session_canceled AND f.session_canceled_by = 'coach'))))
     ) items
     ORDER BY coalesce("refundedAt", "paidAt")
     LIMIT ${LIMIT}`,
    [includeTest],
  );
  return { items: rows };
}
