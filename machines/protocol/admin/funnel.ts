import { z } from 'zod';
import { tierSchema } from '../common.js';

/*
 * The overview's funnel and new-leads chart (GET /api/admin/overview/funnel). Days are the
 * admin's calendar days: the browser sends its IANA time zone and PostgreSQL does the
 * arithmetic with AT TIME ZONE, so "today" and each bar's midnight are the admin's own.
 */

const FUNNEL_PERIODS = ['7d', '30d', 'all'] as const;
export type FunnelPeriod = (typeof FUNNEL_PERIODS)[number];

/** Letters, digits, _ + - in slash-separated parts (Europe/Paris, America/Argentina/Buenos_Aires, Etc/GMT+5). */
const TIME_ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

export const funnelQuerySchema = z.object({
  period: z.enum(FUNNEL_PERIODS, 'Use 7d, 30d or all.').default('30d'),
  tz: z
    .string()
    .max(64, 'A time zone name is at most 64 characters.')
    .regex(TIME_ZONE_PATTERN, 'Use an IANA time zone such as Europe/Paris.')
    .refine(isKnownTimeZone, 'Unknown time zone.')
    .default('UTC'),
});

export type FunnelQuery = z.infer<typeof funnelQuerySchema>;

const count = z.number().int().min(0);
const isoDay = z.iso.date();

export const overviewFunnelSchema = z.object({
  period: z.enum(FUNNEL_PERIODS),
  timeZone: z.string(),
  /** The period's first and last (today) day in the admin's time zone; all time starts at the first lead. */
  from: isoDay,
  to: isoDay,
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
