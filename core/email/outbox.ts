import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import { networkCause } from '../integrations/network-cause.js';
import type pg from 'pg';
import { insertJob } from '../queues/outbox.js';
import { inTransaction } from '../db/transaction.js';
import { recipientLimitReason } from './recipient-limit.js';
import type { SendEmail } from './transport.js';

import type { EmailKind } from '#machines/protocol/operations.js';

// The one writer of email_outbox (core/db/table-owners.ts; decision 0015): every email is written,
// delivered and marked through the functions here.

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

/**
 * How a delivery ended: sent through SMTP, recorded (no SMTP configured), skipped (over the
 * per-recipient limit: not sent, never retried; `reason` says why), or found already done.
 */
export interface DeliveryResult {
  emailId: string;
  status: 'sent' | 'recorded' | 'skipped';
  messageId?: string;
  reason?: string;
  repeated?: true;
}

/**
 * How a new outbox row starts: pending delivery, recorded (no SMTP) or skipped (over the limit,
 * `error` its reason), and the error of a failed first attempt (pending with an error).
 */
interface RowStart {
  status?: 'pending' | 'recorded' | 'skipped';
  error?: string;
}

async function insertEmail(
  db: Pick<pg.Pool, 'query'>,
  id: string,
  jobId: string,
  draft: EmailDraft,
  start: RowStart = {},
): Promise<string | undefined> {
  const recordsFailure = start.error !== undefined && (start.status ?? 'pending') === 'pending';
  const inserted = await db.query<{ id: string }>({
    // one text per name: the rare failure record (DO UPDATE) goes unprepared
    ...(recordsFailure ? {} : { name: 'insert-email' }),
    text: `INSERT INTO email_outbox (id, lead_id, contact_id, job_id, kind, to_address, reply_to, subject, text_body, html_body, headers, status, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (job_id) DO ${recordsFailure ? 'UPDATE SET error = EXCLUDED.error' : 'NOTHING'} RETURNING id`,
    values: [
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
      draft.headers ?? {},
      start.status ?? 'pending',
      start.error ?? null,
    ],
  });
  return inserted.rows[0]?.id;
}

/**
 * Stores an email and the 'email' job that delivers it, with the caller's client, so both commit
 * with whatever caused the email. The row id is chosen here because the job's payload names it.
 */
export async function queueEmail(db: pg.ClientBase, draft: EmailDraft): Promise<string> {
  const id = randomUUID();
  const jobId = await insertJob(db, { queue: 'email', name: draft.kind, payload: { emailId: id }, leadId: draft.leadId ?? null });
  await insertEmail(db, id, jobId, draft);
  return id;
}

/**
 * Stores the email of a job that delivers it itself (homework), keyed by that job: a retry gets
 * the row of its first attempt back instead of a second.
 */
export async function recordJobEmail(db: Pick<pg.Pool, 'query'>, jobId: string, draft: EmailDraft): Promise<string> {
  const created = await insertEmail(db, randomUUID(), jobId, draft);
  if (created) return created;
  const existing = await db.query<{ id: string }>('SELECT id FROM email_outbox WHERE job_id = $1', [jobId]);
  return existing.rows[0]!.id;
}

/**
 * A job email's delivery failed inside the job's transaction, which rolls back with its row: the
 * caller records the row with the error afterwards (recordFailedJobEmail) so the admin sees why it
 * is still pending, and rethrows `cause` for the job to retry.
 */
export class JobEmailFailed extends Error {
  constructor(
    readonly jobId: string,
    readonly draft: EmailDraft,
    override readonly cause: unknown,
  ) {
    super(errorText(cause));
  }
}

/** Keeps the row of a job email whose delivery failed, pending with its error (a retry delivers it). */
export async function recordFailedJobEmail(db: Pick<pg.Pool, 'query'>, failed: JobEmailFailed): Promise<void> {
  await insertEmail(db, randomUUID(), failed.jobId, failed.draft, { error: failed.message });
}

/**
 * Writes and delivers the email a job composes itself, with the job's own transaction: the row is
 * keyed by the job, so a second delivery of the job finds it (sent, recorded or skipped: nothing is
 * sent again). With no SMTP the row is written recorded (or skipped, over the per-recipient
 * limit) in one statement after the limit's check. A provider failure throws JobEmailFailed,
 * rolling the transaction back.
 */
export async function sendJobEmail(
  client: pg.ClientBase,
  send: SendEmail | null,
  jobId: string,
  draft: EmailDraft,
): Promise<DeliveryResult> {
  // without SMTP the row is the delivery: checked against the limit, then written settled
  if (!send) {
    const over = await recipientLimitReason(client, draft.kind, draft.to);
    const start: RowStart = over ? { status: 'skipped', error: over } : { status: 'recorded' };
    const created = await insertEmail(client, randomUUID(), jobId, draft, start);
    if (created) return over ? { emailId: created, status: 'skipped', reason: over } : { emailId: created, status: 'recorded' };
  }
  const created = send ? await insertEmail(client, randomUUID(), jobId, draft) : undefined;
  const emailId = created ?? (await client.query<{ id: string }>('SELECT id FROM email_outbox WHERE job_id = $1', [jobId])).rows[0]!.id;
  const attempt = await deliverLocked(client, send, emailId);
  if ('failure' in attempt) throw new JobEmailFailed(jobId, draft, attempt.failure);
  return attempt;
}

interface OutboxRow {
  status: 'pending' | 'sent' | 'recorded' | 'failed' | 'skipped';
  kind: EmailDraft['kind'];
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
 * Delivers one outbox row, locked with `client` while it is sent so a duplicate job waits and
 * then finds it done: through `send` when SMTP is configured, else marks it recorded. Every email
 * passes here (or through sendJobEmail's check without SMTP), so this is where the per-recipient
 * limit is kept: a row over it is marked skipped with the reason and not sent. A row already sent,
 * recorded or skipped is never sent again. A provider failure is written to the row and returned.
 */
async function deliverLocked(client: pg.ClientBase, send: SendEmail | null, emailId: string): Promise<Attempt> {
  const found = await client.query<OutboxRow & { error: string | null }>(
    'SELECT status, kind, to_address, reply_to, subject, text_body, html_body, headers, provider_message_id, error FROM email_outbox WHERE id = $1 FOR UPDATE',
    [emailId],
  );
  const row = found.rows[0];
  if (!row) throw new UnrecoverableError(`No email ${emailId} in the outbox`);
  if (row.status === 'sent' || row.status === 'recorded') {
    return { emailId, status: row.status, ...(row.provider_message_id ? { messageId: row.provider_message_id } : {}), repeated: true };
  }
  if (row.status === 'skipped') return { emailId, status: 'skipped', ...(row.error ? { reason: row.error } : {}), repeated: true };
  const over = await recipientLimitReason(client, row.kind, row.to_address);
  if (over) {
    await client.query("UPDATE email_outbox SET status = 'skipped', error = $2 WHERE id = $1", [emailId, over]);
    return { emailId, status: 'skipped', reason: over };
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
    });
    await client.query("UPDATE email_outbox SET status = 'sent', provider_message_id = $2, sent_at = now(), error = NULL WHERE id = $1", [
      emailId,
      messageId,
    ]);
    return { emailId, status: 'sent', messageId };
  } catch (failure) {
    await client.query('UPDATE email_outbox SET error = $2 WHERE id = $1', [emailId, errorText(failure)]);
    return { failure };
  }
}

/**
 * Delivers one outbox row (queued with queueEmail) in a transaction of its own. A provider failure
 * is kept on the row (the transaction commits, so the admin sees why the email is still pending)
 * and rethrown, so the job retries.
 */
export async function deliverEmail(pool: pg.Pool, send: SendEmail | null, emailId: string): Promise<DeliveryResult> {
  const attempt = await inTransaction(pool, (client) => deliverLocked(client, send, emailId));
  if ('failure' in attempt) throw attempt.failure;
  return attempt;
}

/**
 * Homework's single email per flow and grading (workers/processors/homework.ts): a failed email of
 * an earlier job of the flow is taken over by `jobId`, with this job's content, and goes back to
 * pending instead of a second email being written.
 */
export async function takeOverFailedEmail(client: pg.ClientBase, emailId: string, jobId: string, draft: EmailDraft): Promise<void> {
  // the earlier email's attachment (a report, before decision 0040) goes with its content
  await client.query(
    `UPDATE email_outbox SET job_id = $2, status = 'pending', error = NULL, to_address = $3, reply_to = $4, subject = $5,
       text_body = $6, html_body = $7, attachments = '[]', lead_id = $8
     WHERE id = $1`,
    [emailId, jobId, draft.to, draft.replyTo ?? null, draft.subject, draft.text, draft.html, draft.leadId ?? null],
  );
}

/** A job's own email that failed for good goes back to pending when the job runs again (the coach's retry). */
export async function reopenFailedEmail(client: pg.ClientBase, emailId: string): Promise<void> {
  await client.query("UPDATE email_outbox SET status = 'pending', error = NULL WHERE id = $1 AND status = 'failed'", [emailId]);
}

/** Marks an email that will not be retried again as failed, with the last error (one that was settled stays as it is). */
export async function markEmailFailed(db: pg.Pool | pg.ClientBase, emailId: string, error: unknown): Promise<void> {
  await db.query("UPDATE email_outbox SET status = 'failed', error = $2 WHERE id = $1 AND status NOT IN ('sent', 'recorded', 'skipped')", [
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
