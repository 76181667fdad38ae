import { z } from 'zod';
import { deliverEmail, markEmailFailed } from '../../server/email/outbox.js';
import { smtpSender } from '../../server/email/transport.js';
import type { QueueProcessor } from './index.js';
import { sendResultsEmail } from './results-email.js';

const payloadSchema = z.object({ emailId: z.uuid() });

/** The job name of the results email, which composes its row itself (the others arrive composed). */
export const RESULTS_EMAIL_JOB = 'results';

/**
 * Delivers one email_outbox row (queued with queueEmail): through SMTP_URL when set, else the row
 * is marked recorded and the admin reads it there. A provider failure throws so BullMQ retries
 * with backoff; once the retries are spent the row is marked failed. The results email is written
 * by its job first (sendResultsEmail), with the report attached.
 */
export const emailProcessor: QueueProcessor = {
  process: async (job, context) => {
    if (job.name === RESULTS_EMAIL_JOB) return sendResultsEmail(job, context);
    const { emailId } = payloadSchema.parse(job.data.payload);
    return deliverEmail(context.pool, smtpSender(context.config), emailId);
  },
  onExhausted: async (job, { pool }, error) => {
    if (job.name === RESULTS_EMAIL_JOB) {
      const row = await pool.query<{ id: string }>('SELECT id FROM email_outbox WHERE job_id = $1', [job.data.jobRowId]);
      if (row.rows[0]) await markEmailFailed(pool, row.rows[0].id, error);
      return;
    }
    const { emailId } = payloadSchema.parse(job.data.payload);
    await markEmailFailed(pool, emailId, error);
  },
};
