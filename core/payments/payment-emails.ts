import type pg from 'pg';
import { queueEmail } from '../email/outbox.js';
import { refundConfirmation, type PaymentDetails } from '../email/payment-templates.js';
import { readSiteSettings } from '../site/settings.js';
import type { PaymentRow } from './payment-tracking.js';

/** The lead a payment's email goes to, or null: none, or a test lead (test leads get no email; lead_facts(false) leaves them out). */
export async function paymentRecipient(
  db: pg.ClientBase | pg.Pool,
  leadId: string | null,
): Promise<{ email: string; name: string } | null> {
  if (!leadId) return null;
  const found = await db.query<{ email: string; name: string }>('SELECT email, name FROM lead_facts(false) WHERE lead_id = $1', [leadId]);
  return found.rows[0] ?? null;
}

export function paymentDetails(payment: PaymentRow, name: string, at: Date): PaymentDetails {
  return {
    name,
    amountCents: payment.amount_cents,
    currency: payment.currency,
    reference: payment.payment_intent_id ?? payment.id,
    at,
    testMode: payment.test_mode,
  };
}

/**
 * Queues the refund confirmation in the transaction that marked `payment` refunded, so it is sent
 * exactly when the refund is recorded (an admin's refund, or Stripe's charge.refunded) and once.
 */
export async function queueRefundConfirmation(client: pg.ClientBase, payment: PaymentRow): Promise<void> {
  const lead = await paymentRecipient(client, payment.lead_id);
  if (!lead) return;
  await queueEmail(client, {
    kind: 'refund_confirmation',
    to: lead.email,
    leadId: payment.lead_id,
    ...refundConfirmation(paymentDetails(payment, lead.name, payment.refunded_at ?? new Date()), await readSiteSettings(client)),
  });
}
