import { z } from 'zod';

/*
 * Which leads an admin count, chart, list or export covers (core/leads/lead-scope.ts). Days are
 * the admin's calendar days: the browser sends its IANA time zone and PostgreSQL does the
 * arithmetic with AT TIME ZONE, so "today" and each day's midnight are the admin's own. Test
 * leads (and payments made in test-payment mode) are left out unless includeTest says otherwise,
 * the same switch on every screen.
 */

export const LEAD_PERIODS = ['7d', '30d', 'all'] as const;
export type LeadPeriod = (typeof LEAD_PERIODS)[number];

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

export const timeZoneSchema = z
  .string()
  .max(64, 'A time zone name is at most 64 characters.')
  .regex(TIME_ZONE_PATTERN, 'Use an IANA time zone such as Europe/Paris.')
  .refine(isKnownTimeZone, 'Unknown time zone.')
  .default('UTC');

/** The include-test-leads switch as a query parameter: true or false, off when absent. */
export const includeTestSchema = z
  .enum(['true', 'false'], 'Use true or false.')
  .default('false')
  .transform((value) => value === 'true');

/** The Overview's scope: a period ending today, the admin's time zone, and the test switch. */
export const leadScopeQuerySchema = z.object({
  period: z.enum(LEAD_PERIODS, 'Use 7d, 30d or all.').default('30d'),
  tz: timeZoneSchema,
  includeTest: includeTestSchema,
});
export type LeadScopeQuery = z.infer<typeof leadScopeQuerySchema>;

const isoDay = z.iso.date();

/** What an Overview answer says it covers: the scope it was asked for, its days resolved. */
export const scopeEchoSchema = z.object({
  period: z.enum(LEAD_PERIODS),
  timeZone: z.string(),
  includeTest: z.boolean(),
  /** The period's first and last (today) day in the admin's time zone; all time starts at the first lead. */
  from: isoDay,
  to: isoDay,
});
