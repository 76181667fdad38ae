import { z } from 'zod';
import { timestamp } from './common.js';

/*
 * The Overview's "Needs attention" list (GET /api/admin/overview/attention): paying leads whose
 * strategy session is not booked once their reminder went out, and deposits whose session the
 * coach cancelled while the policy is to flag them for a decision rather than refund at once.
 */

const ATTENTION_REASONS = ['not_booked', 'coach_canceled'] as const;

const attentionItemSchema = z.object({
  leadId: z.uuid(),
  name: z.string(),
  email: z.string(),
  reason: z.enum(ATTENTION_REASONS),
  amountCents: z.number().int().min(0),
  paidAt: timestamp,
  /** When the session was cancelled (coach_canceled), else null. */
  canceledAt: timestamp.nullable(),
});

export const needsAttentionSchema = z.object({ items: attentionItemSchema.array() });
export type NeedsAttention = z.infer<typeof needsAttentionSchema>;
