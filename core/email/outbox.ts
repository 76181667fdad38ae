import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import { networkCause } from '../integrations/network-cause.js';
import type pg from 'pg';
import { insertJob } from '../queues/outbox.js';
import { inTransaction } from '../db/transaction.js';
import type { EmailAttachment, SendEmail } from './transport.js';

import type { EmailKind } from '#machines/protocol/operations.js';

/** An email to store: its content and what it belongs to. */
export interface EmailDraft {
  kind: EmailKind;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  html: string;
  leadId?: string | null;
  contactId?: string | null;
  /** Extra message headers (a reminder's List-Unsubscribe), stored with the row and sent as they are. */
  headers?: Record<string, string>;
}

/** How a delivery ended: sent through SMTP, recorded (no SMTP configured), or found already done. */
export interface DeliveryResult {
  emailId: string;
  status: 'sent' | 'recorded';
  messageId?: string;
  repeated?: true;
}

async function insertEmail(
  db: pg.Pool | pg.ClientBase,
  id: string,
  jobId: string,
  draft: EmailDraft,
  attachments: object[],
): Promise<string | undefined> {
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO email_outbox (id, lead_id, contact_id, job_id, kind, to_address, reply_to, subject, text_body, html_body, attachments, headers)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (job_id) DO NOTHING RETURNING id`,
    [
      id,
      draft.leadId ?? null,
      draft.contactId ?? null,
      jobId,
      draft.kind,
      draft.to,
      draft.replyTo ?? null,
      draft.subject,
      draft.text,
      draft.html,
      JSON.stringify(attachments),
      draft.headers ?? {},
    ],
  );
  return inserted.rows[0]?.id;
}

/**
 * Stores an email and the 'email' job that delivers it, with the caller's client, so both commit
 * with whatever caused the email. The row id is chosen here because the job's payload names it.
 */
export async function queueEmail(db: pg.ClientBase, draft: EmailDraft): Promise<string> {
  const id = randomUUID();
  const jobId = await insertJob(db, { queue: 'email', name: draft.kind, payload: { emailId: id }, leadId: draft.leadId ?? null });
  await insertEmail(db, id, jobId, draft, []);
  return id;
}

/**
 * Stores the email of a job that delivers it itself (homework, whose PDF is rebuilt rather than
 * stored), keyed by that job: a retry gets the row of its first attempt back instead of a second.
 * Attachments are listed by name and size only.
 */
export async function recordJobEmail(
  db: pg.Pool | pg.ClientBase,
  jobId: string,
  draft: EmailDraft,
  attachments: EmailAttachment[],
): Promise<string> {
  const listed = attachments.map((file) => ({ filename: file.filename, contentType: file.contentType, size: file.content.length }));
  const created = await insertEmail(db, randomUUID(), jobId, draft, listed);
  if (created) return created;
  const existing = await db.query<{ id: string }>('SELECT id FROM email_outbox WHERE job_id = $1', [jobId]);
  return existing.rows[0]!.id;
}

interface OutboxRow {
  status: 'pending' | 'sent' | 'recorded' | 'failed';
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  headers: Record<string, string>;
  provider_message_id: string | null;
}

type Attempt = DeliveryResult | { failure: unknown };

/**
 * Delivers one outbox row: through `send` when SMTP is configured, else marks it recorded. A row
 * already sent or recorded is never sent again, and the row stays locked while it is being sent
 * so a duplicate job waits and then finds it done. A provider failure is written to the row and
 * rethrown, so the job retries.
 */
export async function deliverEmail(
  pool: pg.Pool,
  send: SendEmail | null,
  emailId: string,
  attachments: EmailAttachment[] = [],
): Promise<DeliveryResult> {
  const attempt = await inTransaction<Attempt>(pool, async (client) => {
    const found = await client.query<OutboxRow>(
      'SELECT status, to_address, reply_to, subject, text_body, html_body, headers, provider_message_id FROM email_outbox WHERE id = $1 FOR UPDATE',
      [emailId],
    );
    const row = found.rows[0];
    if (!row) throw new UnrecoverableError(`No email ${emailId} in the outbox`);
    if (row.status === 'sent' || row.status === 'recorded') {
      return { emailId, status: row.status, ...(row.provider_message_id ? { messageId: row.provider_message_id } : {}), repeated: true };
    }
    if (!send) {
      await client.query("UPDATE email_outbox SET status = 'recorded', error = NULL WHERE id = $1", [emailId]);
      return { emailId, status: 'recorded' };
    }
    try {
      const messageId = await send({
        to: row.to_address,
        replyTo: row.reply_to,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        headers: row.headers,
        attachments,
      });
      await client.query("UPDATE email_outbox SET status = 'sent', provider_message_id = $2, sent_at = now(), error = NULL WHERE id = $1", [
        emailId,
        messageId,
      ]);
      return { emailId, status: 'sent', messageId };
    } catch (failure) {
      // kept (the transaction commits) so the admin sees why the email is still pending
      await client.query('UPDATE email_outbox SET error = $2 WHERE id = $1', [emailId, errorText(failure)]);
      return { failure };
    }
  });
  if ('failure' in attempt) throw attempt.failure;
  return attempt;
}

/** Marks an email that will not be retried again as failed, with the last error. */
export async function markEmailFailed(db: pg.Pool | pg.ClientBase, emailId: string, error: unknown): Promise<void> {
  await db.query("UPDATE email_outbox SET status = 'failed', error = $2 WHERE id = $1 AND status NOT IN ('sent', 'recorded')", [
    emailId,
    errorText(error),
  ]);
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // the cause first (DNS, refused, TLS, timeout, the server's answer), then the transport's words
  const cause = networkCause(error);
  return (cause ? `${cause}: ${message}` : message).slice(0, 1000);
}
