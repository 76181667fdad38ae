import type pg from 'pg';
import type { NeedsAttention } from '#machines/protocol/admin/attention.js';

/** At most this many rows: the list is a to-do, not a report. */
const LIMIT = 50;

/**
 * Paid deposits that need the coach: the flow's deposit path is not booked and either its reminder
 * to book went out (the configured wait passed) or the coach cancelled the session (flag policy;
 * under the refund policy the deposit is refunded and drops off the list). Test flows never show.
 */
export async function fetchNeedsAttention(db: pg.Pool): Promise<NeedsAttention> {
  const { rows } = await db.query<NeedsAttention['items'][number]>(
    `SELECT l.lead_id AS "leadId", l.name, l.email, p.amount_cents AS "amountCents", p.created_at AS "paidAt",
            CASE WHEN c.canceled_by = 'coach' THEN 'coach_canceled' ELSE 'not_booked' END AS reason,
            CASE WHEN c.canceled_by = 'coach' THEN c.created_at END AS "canceledAt"
     FROM flows f
     JOIN leads l ON l.lead_id = f.lead_id
     JOIN LATERAL (
       SELECT amount_cents, created_at FROM payment_tracking
       WHERE flow_id = f.id AND purpose = 'deposit' AND status = 'succeeded'
       ORDER BY created_at DESC LIMIT 1
     ) p ON true
     LEFT JOIN LATERAL (
       SELECT payload->>'canceledBy' AS canceled_by, created_at FROM flow_events
       WHERE flow_id = f.id AND type = 'SESSION_CANCELED' ORDER BY seq DESC LIMIT 1
     ) c ON true
     WHERE f.machine = 'assessmentFlow' AND NOT f.testing
       AND f.snapshot->'context'->'completedPath'->>'kind' = 'deposit_paid'
       AND f.snapshot->'context'->'completedPath'->>'booking' IS DISTINCT FROM 'booked'
       AND (coalesce((f.snapshot->'context'->'followUps'->>'remindedToBook')::boolean, false) OR c.canceled_by = 'coach')
     ORDER BY p.created_at
     LIMIT ${LIMIT}`,
  );
  return { items: rows };
}
