import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { coachAddress } from '#core/email/coach.js';
import { addressConfirmationEmail } from '#core/email/templates.js';
import { CONFIRM_LINK_DAYS, confirmLink } from '#core/leads/lead-attempts.js';
import { readSiteSettings } from '#core/site/settings.js';
import { sendComposedEmail } from './composed-email.js';
import type { Processor } from './processor.js';

/** The payload core/flows/effects.ts (holdForConfirmation) writes. */
const payloadSchema = z.object({ attemptId: z.uuid() });

/**
 * The one confirmation email of an unconfirmed attempt (decision 0044), to the lead's stored
 * address and name, with the one-time link that gives the attempt to the lead. Keyed by the job,
 * and counted by the per-recipient limit like every email to a typed address.
 */
export const sendAddressConfirmation: Processor = async (job, context) => {
  const parsed = payloadSchema.safeParse(job.data.payload);
  if (!parsed.success) throw new UnrecoverableError(`Unusable address confirmation payload: ${parsed.error.message}`);
  const { attemptId } = parsed.data;
  const { config } = context;
  return sendComposedEmail(context, job.data.jobRowId, async (db) => {
    const found = await db.query<{ lead_id: string; email: string; name: string }>(
      `SELECT l.lead_id, l.email, l.name FROM lead_attempts a JOIN leads l USING (lead_id)
       WHERE a.id = $1 AND a.confirmed_at IS NULL`,
      [attemptId],
    );
    const lead = found.rows[0];
    if (!lead) return { skipped: 'the attempt was confirmed, or its lead deleted' };
    const link = await confirmLink(db, config.publicUrl, attemptId);
    return {
      draft: {
        kind: 'address_confirmation',
        to: lead.email,
        replyTo: await coachAddress(db, config),
        leadId: lead.lead_id,
        ...addressConfirmationEmail({ name: lead.name, confirmLink: link, days: CONFIRM_LINK_DAYS, site: await readSiteSettings(db) }),
      },
    };
  });
};
