import type pg from 'pg';
import type { ContactSubmission } from '#machines/protocol/admin/overview.js';

// The one writer of contact_submissions (core/db/table-owners.ts): the contact form stores a
// message, the admin marks it handled.

/** A contact message's columns as the admin reads them. */
export const CONTACT_COLUMNS = 'id, name, email, company, message, handled, handled_at, created_at';

/** Stores a message from the contact form, in the transaction that queues its two emails. */
export async function storeContactSubmission(
  client: pg.ClientBase,
  message: { name: string; email: string; company: string | null; message: string },
): Promise<{ id: string; receivedAt: Date }> {
  const stored = await client.query<{ id: string; created_at: Date }>(
    'INSERT INTO contact_submissions (name, email, company, message) VALUES ($1, $2, $3, $4) RETURNING id, created_at',
    [message.name, message.email, message.company, message.message],
  );
  const { id, created_at: receivedAt } = stored.rows[0]!;
  return { id, receivedAt };
}

/** Marks a contact message handled (stamping when) or not; null when there is no such message. */
export async function setContactHandled(db: pg.Pool, id: string, handled: boolean): Promise<ContactSubmission | null> {
  const updated = await db.query<ContactSubmission>(
    `UPDATE contact_submissions
     SET handled = $2, handled_at = CASE WHEN $2 THEN coalesce(handled_at, now()) END
     WHERE id = $1 RETURNING ${CONTACT_COLUMNS}`,
    [id, handled],
  );
  return updated.rows[0] ?? null;
}
