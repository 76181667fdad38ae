import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { BREVO_API_URL, MarketingApiError } from '#core/integrations/brevo.js';
import { syncMarketingContact } from '#core/integrations/marketing-sync.js';
import type { Processor } from './processor.js';

const payloadSchema = z.object({ target: z.literal('email_marketing'), leadId: z.uuid() });

/**
 * Syncs one lead's contact at the email-marketing provider (core/integrations/marketing-sync.ts).
 * A 429, a 5xx or a network failure throws and BullMQ retries with backoff; a refusal that a retry
 * cannot mend (a bad key, a list that does not exist) fails the job at once, and the card shows why.
 */
export const emailMarketingSync: Processor = async (job, { pool, config }) => {
  const parsed = payloadSchema.safeParse(job.data.payload);
  if (!parsed.success) throw new UnrecoverableError('not an email-marketing sync job');
  try {
    return await syncMarketingContact(pool, config.BREVO_API_URL ?? BREVO_API_URL, parsed.data.leadId);
  } catch (error) {
    if (error instanceof MarketingApiError)
      throw error.retryable ? new Error(`email marketing: ${error.message}`) : new UnrecoverableError(`email marketing: ${error.message}`);
    throw error;
  }
};
