import type pg from 'pg';
import type { SentEmail } from '#machines/protocol/admin/emails.js';

/** The columns of an email as the admin reads it (sentEmailSchema). */
export const SENT_EMAIL_COLUMNS = 'id, kind, to_address, subject, text_body, attachments, status, error, created_at, sent_at';

/** The emails written for a contact message (the visitor's confirmation and the coach's notification), or null for no such message. */
export async function contactEmails(db: pg.Pool, contactId: string): Promise<SentEmail[] | null> {
  const contact = await db.query('SELECT 1 FROM contact_submissions WHERE id = $1', [contactId]);
  if (contact.rowCount === 0) return null;
  const found = await db.query<SentEmail>(
    `SELECT ${SENT_EMAIL_COLUMNS} FROM email_outbox WHERE contact_id = $1 ORDER BY created_at, kind`,
    [contactId],
  );
  return found.rows;
}
