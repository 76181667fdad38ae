import type pg from 'pg';
import { JobEmailFailed, recordFailedJobEmail, sendJobEmail, type DeliveryResult, type EmailDraft } from '#core/email/outbox.js';
import { smtpSender } from '#core/email/transport.js';
import { inJobTransaction, type ProcessorContext } from './processor.js';

/** What a composing job decided: the email to write and send, or why none is due. */
export type Composed = { draft: EmailDraft } | { skipped: string };

/**
 * Runs a job that composes its own email (results, receipt, reminders) in the job's transaction:
 * what `compose` reads, the email's row, its delivery and the job's completion commit together, so
 * the whole job is one commit besides its claim. A failed delivery rolls that back; its row is then
 * kept pending with the error and the job retries.
 */
export async function sendComposedEmail(
  context: ProcessorContext,
  jobRowId: string,
  compose: (db: pg.ClientBase) => Promise<Composed>,
): Promise<DeliveryResult | { skipped: string }> {
  try {
    return await inJobTransaction(context, async ({ client }) => {
      const composed = await compose(client);
      if ('skipped' in composed) return composed;
      return sendJobEmail(client, smtpSender(context.config), jobRowId, composed.draft);
    });
  } catch (error) {
    if (!(error instanceof JobEmailFailed)) throw error;
    await recordFailedJobEmail(context.pool, error);
    throw error.cause;
  }
}
