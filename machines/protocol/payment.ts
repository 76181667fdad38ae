import { z } from 'zod';
import type { Notice } from './common.js';

/** The refundable deposit, and the test payment's amount, in cents ($250, 25000). */
export const DEPOSIT_AMOUNT_CENTS = 25_000;

/** What a deposit pays for: the strategy session, or the homework path of the maybe flow. */
export const paymentPurposeSchema = z.enum(['deposit', 'paid_homework']);
/** What a deposit pays for. */
export type PaymentPurpose = z.infer<typeof paymentPurposeSchema>;

/** Why a payment attempt ended without money received; each has its own spec message. */
export const paymentFailureReasonSchema = z.enum([
  'start_failed',
  'canceled',
  'verification_failed',
  'error',
  'test_failed',
  'address_unconfirmed',
]);
/** Why a payment attempt ended without money received. */
export type PaymentFailureReason = z.infer<typeof paymentFailureReasonSchema>;

/** The message for each way a payment can fail, word for word from the product copy. */
export const paymentFailureNotices: Readonly<Record<PaymentFailureReason, Notice>> = {
  start_failed: {
    title: 'Payment Failed',
    description: 'There was an issue starting your checkout. Please try again.',
  },
  canceled: { title: null, description: 'Your checkout was canceled. You can restart the process anytime.' },
  verification_failed: { title: 'Payment verification failed', description: 'Please contact support.' },
  error: { title: 'Error', description: 'Failed to process your request. Please contact support.' },
  test_failed: { title: 'Test Payment Failed', description: null },
  // not the spec's: a checkout is offered only once the typed address is confirmed (decision 0044)
  address_unconfirmed: {
    title: 'Confirm your email first',
    description: 'We sent a confirmation link to your email address. Open it to continue to payment.',
  },
};

/** A payment-intent id as the payment provider issues it. */
export const paymentIntentIdSchema = z.string().min(1).max(255);

/** The payment provider's hosted checkout page a deposit is paid on. */
export const checkoutUrlSchema = z.httpUrl().max(2048);

/** Where a payment stands; only `succeeded` means money was received and kept. */
export const paymentStatusSchema = z.enum(['pending', 'succeeded', 'failed', 'canceled', 'refunded']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** A payment_tracking row as the API answers it. */
export const paymentSchema = z.object({
  id: z.uuid(),
  paymentIntentId: z.string().nullable(),
  checkoutSessionId: z.string().nullable(),
  leadId: z.uuid().nullable(),
  flowId: z.uuid().nullable(),
  purpose: paymentPurposeSchema,
  amountCents: z.number().int(),
  currency: z.string(),
  status: paymentStatusSchema,
  testMode: z.boolean(),
  refundId: z.string().nullable(),
  refundedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Payment = z.infer<typeof paymentSchema>;
