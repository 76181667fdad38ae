import { z } from 'zod';
import { deliverEmail, markEmailFailed } from '../../server/email/outbox.js';
import { smtpSender } from '../../server/email/transport.js';
import type { QueueProcessor } from './index.js';

const payloadSchema = z.object({ emailId: z.uuid() });

/**
 * Delivers one email_outbox row (queued with queueEmail): through SMTP_URL when set, else the row
 * is marked recorded and the admin reads it there. A provider failure throws so BullMQ retries
 * with backoff; once the retries are spent the row is marked failed.
 */
export const emailProcessor: QueueProcessor = {
  process: async (job, { pool, config }) => {
    const { emailId } = payloadSchema.parse(job.data.payload);
    return deliverEmail(pool, smtpSender(config), emailId);
  },
  onExhausted: async (job, { pool }, error) => {
    const { emailId } = payloadSchema.parse(job.data.payload);
    await markEmailFailed(pool, emailId, error);
  },
};
