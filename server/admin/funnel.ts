import type pg from 'pg';
import type { OverviewFunnel } from '#machines/protocol/admin/funnel.js';
import type { LeadScopeQuery } from '#machines/protocol/admin/scope.js';
import { createdIn, leadSummariesIn, overviewScope, scopeAnswered, whereAll, type LeadScope } from '#core/leads/lead-scope.js';

/** All time longer than this many days is drawn per week: a bar per day would be too thin to read. */
const MAX_DAILY_BARS = 92;

type FunnelCounts = Omit<OverviewFunnel['funnel'], 'tiers' | 'visits'> & OverviewFunnel['funnel']['tiers'];

/**
 * The funnel as a cohort: the leads of the scope, and how far each of them has got, every step a
 * fact of lead_facts counted once per lead, from the summaries its owners keep (lead_summaries). The survey comes after the diagnostic on every path,
 * so a surveyed lead counts as diagnosed too. Paid means a payment that went through and was not
 * refunded; booked, a paid deposit whose session the scheduling provider reported booked.
 */
async function funnelCounts(db: pg.Pool, scope: LeadScope): Promise<FunnelCounts> {
  const params: unknown[] = [];
  const leads = leadSummariesIn(scope, params);
  const { rows } = await db.query<FunnelCounts>(
    `SELECT count(*)::int AS captured,
            count(*) FILTER (WHERE s.diagnostic_done OR s.survey_done)::int AS "diagnosticDone",
            count(*) FILTER (WHERE s.survey_done)::int AS "surveyDone",
            count(*) FILTER (WHERE s.survey_done AND s.tier = 'book_call')::int AS book_call,
            count(*) FILTER (WHERE s.survey_done AND s.tier = 'homework')::int AS homework,
            count(*) FILTER (WHERE s.survey_done AND s.tier = 'nurture')::int AS nurture,
            count(*) FILTER (WHERE s.survey_done AND s.tier IS NULL)::int AS ungraded,
            count(*) FILTER (WHERE ${leads.fact('deposit_paid')} OR ${leads.fact('homework_paid')})::int AS "depositsPaid",
            count(*) FILTER (WHERE ${leads.fact('session_booked')})::int AS "sessionsBooked",
            coalesce(sum(${leads.fact('revenue_cents')}), 0)::int AS "revenueCents"
     FROM ${leads.from} ${whereAll(leads.where)}`,
    params,
  );
  return rows[0]!;
}

/** Tab sessions that opened a public page in the scope's days (visits carry no test flag: nothing about a visitor is kept). */
async function visits(db: pg.Pool, scope: LeadScope): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM site_visits v ${whereAll(createdIn(scope, 'v.created_at', params))}`,
    params,
  );
  return rows[0]!.n;
}

/** The scope's new leads per day (or week) from `from` to `to`, in the admin's time zone, zero-filled. */
async function leadsPerBucket(
  db: pg.Pool,
  scope: LeadScope,
  days: { from: string; to: string },
  bucket: 'day' | 'week',
): Promise<OverviewFunnel['leadsPerDay']['bars']> {
  const params: unknown[] = [scope.tz, days.from, days.to, bucket];
  const leads = leadSummariesIn(scope, params, 'f');
  const { rows } = await db.query<{ start: string; leads: number }>(
    `WITH series AS (
       SELECT generate_series(date_trunc($4, $2::date::timestamp), $3::date::timestamp, ('1 ' || $4)::interval) AS start
     ), counted AS (
       SELECT date_trunc($4, f.created_at AT TIME ZONE $1) AS start, count(*) AS leads
       FROM ${leads.from} ${whereAll(leads.where)}
       GROUP BY 1
     )
     SELECT to_char(start, 'YYYY-MM-DD') AS start, coalesce(counted.leads, 0)::int AS leads
     FROM series LEFT JOIN counted USING (start)
     ORDER BY start`,
    params,
  );
  return rows;
}

export async function fetchOverviewFunnel(db: pg.Pool, query: LeadScopeQuery): Promise<OverviewFunnel> {
  const scope = await overviewScope(db, query);
  const bucket = scope.days.days > MAX_DAILY_BARS ? 'week' : 'day';
  const [counts, visited, bars] = await Promise.all([
    funnelCounts(db, scope),
    visits(db, scope),
    leadsPerBucket(db, scope, scope.days, bucket),
  ]);
  const { book_call, homework, nurture, ...steps } = counts;
  return {
    ...scopeAnswered(query, scope),
    funnel: { visits: visited, ...steps, tiers: { book_call, homework, nurture } },
    leadsPerDay: { bucket, bars },
  };
}
