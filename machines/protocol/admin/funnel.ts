import { z } from 'zod';
import { tierSchema } from '../common.js';
import { scopeEchoSchema } from './scope.js';

/*
 * The overview's funnel and new-leads chart (GET /api/admin/overview/funnel), for the leads of a
 * scope (./scope.ts): every step follows the same leads, each counted once, from lead_facts.
 */

const count = z.number().int().min(0);
const isoDay = z.iso.date();

export const overviewFunnelSchema = scopeEchoSchema.extend({
  funnel: z.object({
    /** Tab sessions that opened a public page (site_visits). */
    visits: count,
    /** Leads created in the period; every step below follows these leads, whenever they got there. */
    captured: count,
    diagnosticDone: count,
    surveyDone: count,
    /** The surveyed leads by their latest tier; ungraded ones are waiting for grading or were asked to retake. */
    tiers: z.record(tierSchema, count),
    ungraded: count,
    /** Leads with a succeeded, unrefunded payment: the $250 deposit (book_call) or paid homework. */
    depositsPaid: count,
    /** Of those, leads whose strategy session the scheduling provider reported booked (and not cancelled). */
    sessionsBooked: count,
    /** What those payments brought in, refunds deducted, in cents. */
    revenueCents: count,
  }),
  leadsPerDay: z.object({
    bucket: z.enum(['day', 'week']),
    /** Every day (or week, starting Monday) of the period in order, zero when no lead came. */
    bars: z.array(z.object({ start: isoDay, leads: count })),
  }),
});
export type OverviewFunnel = z.infer<typeof overviewFunnelSchema>;
