import { z } from 'zod';
import { timestamp } from './common.js';
import { includeTestSchema } from './scope.js';

/*
 * The Overview's "Needs attention" list (GET /api/admin/overview/attention), from lead_facts:
 * - not_booked: a paid deposit whose session is not booked once the reminder to book went out;
 * - coach_canceled: the coach cancelled the session while the policy is to flag it for a decision
 *   rather than refund at once;
 * - refunded_booked: the deposit was refunded but the session is still booked at the scheduler,
 *   where only the coach can cancel it.
 */

const ATTENTION_REASONS = ['not_booked', 'coach_canceled', 'refunded_booked'] as const;

export const attentionQuerySchema = z.object({ includeTest: includeTestSchema });

const attentionItemSchema = z.object({
  leadId: z.uuid(),
  name: z.string(),
  email: z.string(),
  reason: z.enum(ATTENTION_REASONS),
  amountCents: z.number().int().min(0),
  paidAt: timestamp,
  /** When the session was cancelled (coach_canceled), else null. */
  canceledAt: timestamp.nullable(),
  /** When the deposit was refunded (refunded_booked), else null. */
  refundedAt: timestamp.nullable(),
  /** When the booked session starts, if the provider said (refunded_booked). */
  sessionStartsAt: z.string().nullable(),
});

export const needsAttentionSchema = z.object({ items: attentionItemSchema.array() });
export type NeedsAttention = z.infer<typeof needsAttentionSchema>;
