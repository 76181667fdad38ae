import { z } from 'zod';
import { bookingStatusSchema } from '../assessment-flow.js';
import { tierSchema } from '../common.js';
import { timestamp } from './common.js';

/** Where a lead's latest deposit stands: none went through, paid, or paid and then refunded. */
const depositStatusSchema = z.enum(['none', 'paid', 'refunded']);

const count = z.number().int().min(0);

/**
 * A lead and what is known about it, as lead_facts defines each fact (core/leads/lead-facts.ts):
 * the one shape every admin list, page and export shows. Names of the two scores are in
 * machines/grading/score-names.ts.
 */
export const leadFactsSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  source: z.string(),
  tags: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  /** Captured in testing mode. */
  test: z.boolean(),
  /** The result the tier and scores are read from: the latest outcome (a rushed attempt is none); null until graded. */
  result_id: z.uuid().nullable(),
  tier: tierSchema.nullable(),
  archetype: z.string().nullable(),
  leadership_score: z.number().nullable(),
  qualification_score: z.number().nullable(),
  /** The latest outcome is the canned one, shown while grading could not be had. */
  fallback: z.boolean().nullable(),
  graded_at: timestamp.nullable(),
  /** Assessments submitted and graded; rushed_attempts of them were sent back to retake. */
  attempts: count,
  rushed_attempts: count,
  diagnostic_done: z.boolean(),
  survey_done: z.boolean(),
  deposit: depositStatusSchema,
  /** The deposit was a test payment (no Stripe key: no money moved); only seen when test data is included. */
  deposit_test_mode: z.boolean().nullable(),
  deposit_cents: z.number().int().nullable(),
  deposit_paid_at: timestamp.nullable(),
  deposit_refunded_at: timestamp.nullable(),
  homework_paid: z.boolean(),
  /** What the lead's payments brought in, refunds deducted (test payments only when test data is included). */
  revenue_cents: count,
  /** The deposit's strategy session as the scheduling provider reported it. */
  booking: bookingStatusSchema,
  session_starts_at: z.string().nullable(),
  session_provider: z.string().nullable(),
  /** The provider's latest word was a cancellation. */
  session_canceled: z.boolean(),
  session_canceled_by: z.enum(['coach', 'lead']).nullable(),
  /** When the provider last booked or cancelled it. */
  session_changed_at: timestamp.nullable(),
  reminded_to_book: z.boolean(),
});
export type LeadFacts = z.infer<typeof leadFactsSchema>;
