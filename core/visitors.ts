import type pg from 'pg';

// The one writer of visitors (core/db/table-owners.ts; decision 0001): a browser's id, and when its
// stored results were last cleared.

/** A visitor's row, made when its browser first starts something (again after a database reset, so a kept cookie never points at nothing). */
export async function recordVisitor(db: pg.Pool, id: string): Promise<void> {
  await db.query('INSERT INTO visitors (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id]);
}

/** A retake (or testing mode) forgets the visitor's completed assessment, in the event's transaction. */
export async function clearVisitorResults(client: pg.ClientBase, visitorId: string): Promise<void> {
  await client.query('UPDATE visitors SET results_cleared_at = clock_timestamp() WHERE id = $1', [visitorId]);
}
