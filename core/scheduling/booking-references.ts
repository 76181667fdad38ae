import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/*
 * The one writer of booking_references (core/db/table-owners.ts, decision 0046). A flow's booking
 * link carries its reference, and the provider passes it back in the booking's event: 128 random
 * bits, issued once per flow and stored, so knowing a flow id (or anything else about a lead) does
 * not let a signed booking event land on that flow.
 */

type Db = Pick<pg.ClientBase, 'query'>;

/** The flow's booking reference, issued on first use (concurrent first uses agree on one). */
export async function bookingReferenceFor(db: Db, flowId: string): Promise<string> {
  const issued = await db.query<{ reference: string }>(
    'INSERT INTO booking_references (flow_id, reference) VALUES ($1, $2) ON CONFLICT (flow_id) DO NOTHING RETURNING reference',
    [flowId, randomBytes(16).toString('hex')],
  );
  if (issued.rows[0]) return issued.rows[0].reference;
  const kept = await db.query<{ reference: string }>('SELECT reference FROM booking_references WHERE flow_id = $1', [flowId]);
  return kept.rows[0]!.reference;
}

/** The flow a reference was issued to, or null for one this site never issued. */
export async function flowOfReference(db: Db, reference: string): Promise<string | null> {
  const found = await db.query<{ flow_id: string }>('SELECT flow_id FROM booking_references WHERE reference = $1', [reference]);
  return found.rows[0]?.flow_id ?? null;
}
