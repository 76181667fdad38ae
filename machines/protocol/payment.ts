import { z } from 'zod';

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
]);
/** Why a payment attempt ended without money received. */
export type PaymentFailureReason = z.infer<typeof paymentFailureReasonSchema>;

/** A payment-intent id as the payment provider issues it. */
export const paymentIntentIdSchema = z.string().min(1).max(255);

/** Every event the payment machine accepts. */
export const paymentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('PAY_TEST') }),
  z.object({ type: z.literal('PAY_DEPOSIT') }),
  z.object({ type: z.literal('CHECKOUT_RETURNED'), paymentIntentId: paymentIntentIdSchema }),
  z.object({ type: z.literal('CHECKOUT_CANCELED') }),
  z.object({ type: z.literal('RETRY') }),
]);
/** An event of the payment machine. */
export type PaymentEvent = z.infer<typeof paymentEventSchema>;
