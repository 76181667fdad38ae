import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { bookingLink } from '#machines/booking-link.js';
import { coachAddress } from '#core/email/coach.js';
import { depositReceipt, homeworkReceipt } from '#core/email/payment-templates.js';
import { bookingUrl } from '#core/integrations/settings.js';
import { DEFAULT_LEAD_NAME } from '#core/leads/lead-service.js';
import { paymentDetails, paymentRecipient } from '#core/payments/payment-emails.js';
import type { PaymentRow } from '#core/payments/payment-tracking.js';
import { bookingReferenceFor } from '#core/scheduling/booking-references.js';
import { readSiteSettings } from '#core/site/settings.js';
import { sendComposedEmail } from './composed-email.js';
import type { Processor } from './processor.js';

/** The payload the flow's sendReceipt effect writes (core/flows/effects.ts). */
const payloadSchema = z.object({
  flowId: z.uuid(),
  request: z.object({ leadId: z.uuid(), paymentIntentId: z.string().min(1) }),
});

/**
 * A payment's receipt (the deposit's, or paid homework's, kind deposit_receipt both): the tracked
 * payment's amount, date and reference, what was bought, the refundable terms, and for the deposit
 * the booking link as the scheduling card stands now, prefilled and carrying the flow's booking
 * reference like the payment screen's. Keyed by the job like the results email.
 */
export const sendReceiptEmail: Processor = async (job, context) => {
  const parsed = payloadSchema.safeParse(job.data.payload);
  if (!parsed.success) throw new UnrecoverableError(`Unusable receipt payload: ${parsed.error.message}`);
  const { leadId, paymentIntentId } = parsed.data.request;
  return sendComposedEmail(context, job.data.jobRowId, async (db) => {
    const lead = await paymentRecipient(db, leadId);
    if (!lead) return { skipped: 'no lead to send it to (deleted, or a test lead)' };
    const found = await db.query<PaymentRow>('SELECT * FROM payment_tracking WHERE payment_intent_id = $1', [paymentIntentId]);
    const payment = found.rows[0];
    // the webhook records the payment in the transaction that confirms the flow, so it is there
    if (!payment) throw new UnrecoverableError('The confirmed payment is not tracked');
    const site = await readSiteSettings(db);
    const details = paymentDetails(payment, lead.name, payment.created_at);
    const draft = { kind: 'deposit_receipt', to: lead.email, replyTo: await coachAddress(db, context.config), leadId } as const;
    // paid homework: what was bought and the terms; its programme is the homework job's own email
    if (payment.purpose === 'paid_homework') return { draft: { ...draft, ...homeworkReceipt(details, site) } };
    const page = await bookingUrl(db);
    const visitor = { name: lead.name === DEFAULT_LEAD_NAME ? null : lead.name, email: lead.email };
    const link = page && bookingLink(visitor, page, await bookingReferenceFor(db, parsed.data.flowId));
    return { draft: { ...draft, ...depositReceipt(details, link, site) } };
  });
};
