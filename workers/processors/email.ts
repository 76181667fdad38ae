import { z } from 'zod';
import { deliverEmail, markEmailFailed } from '#core/email/outbox.js';
import { smtpSender } from '#core/email/transport.js';
import { sendAddressConfirmation } from './address-confirmation.js';
import { sendAssessmentReminder, sendBookingReminder } from './follow-up-reminders.js';
import type { Processor, QueueProcessor } from './processor.js';
import { sendReceiptEmail } from './receipt-email.js';
import { sendResultsEmail } from './results-email.js';

const payloadSchema = z.object({ emailId: z.uuid() });

/** Jobs that compose their email row themselves (the others arrive composed, by queueEmail). */
const COMPOSERS: Record<string, Processor> = {
  results: sendResultsEmail,
  receipt: sendReceiptEmail,
  'assessment-reminder': sendAssessmentReminder,
  'booking-reminder': sendBookingReminder,
  'address-confirmation': sendAddressConfirmation,
};

/**
 * Delivers one email_outbox row (queued with queueEmail): through SMTP_URL when set, else the row
 * is marked recorded and the admin reads it there. A provider failure throws so BullMQ retries
 * with backoff; once the retries are spent the row is marked failed. The results email and the
 * deposit receipt, and the follow-up reminders, are written by their job first (COMPOSERS).
 */
export const emailProcessor: QueueProcessor = {
  process: async (job, context) => {
    const compose = COMPOSERS[job.name];
    if (compose) return compose(job, context);
    const { emailId } = payloadSchema.parse(job.data.payload);
    return deliverEmail(context.pool, smtpSender(context.config), emailId);
  },
  // a composer's whole job is its transaction (sendComposedEmail); a delivery writes as it goes
  claimsOnCompletion: (job) => Object.hasOwn(COMPOSERS, job.name),
  onExhausted: async (job, { pool }, error) => {
    if (COMPOSERS[job.name]) {
      const row = await pool.query<{ id: string }>('SELECT id FROM email_outbox WHERE job_id = $1', [job.data.jobRowId]);
      if (row.rows[0]) await markEmailFailed(pool, row.rows[0].id, error);
      return;
    }
    const { emailId } = payloadSchema.parse(job.data.payload);
    await markEmailFailed(pool, emailId, error);
  },
};
