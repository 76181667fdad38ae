import type pg from 'pg';
import { z } from 'zod';
import type { FunnelPeriod, FunnelQuery, OverviewFunnel } from '#machines/protocol/admin/funnel.js';

const PERIOD_DAYS: Record<FunnelPeriod, number | null> = { '7d': 7, '30d': 30, all: null };
/** All time longer than this many days is drawn per week: a bar per day would be too thin to read. */
const MAX_DAILY_BARS = 92;

/** PostgreSQL's "time zone not recognized": a zone the JavaScript runtime knows but the database does not. */
const INVALID_PARAMETER_VALUE = '22023';

interface Bounds {
  from: string;
  to: string;
  days: number;
  /** The first instant of the period, null for all time. */
  since: Date | null;
}

/** The period's days in the admin's time zone and its first instant; shared with the drop-off per screen. */
export async function periodBounds(db: pg.Pool, { period, tz }: FunnelQuery): Promise<Bounds> {
  try {
    const { rows } = await db.query<Bounds>(
      `WITH today AS (SELECT (now() AT TIME ZONE $1)::date AS today),
       first AS (
         SELECT today, CASE WHEN $2::int IS NULL
                  THEN least(today, coalesce(((SELECT min(created_at) FROM leads) AT TIME ZONE $1)::date, today))
                  ELSE today - ($2::int - 1) END AS first_day
         FROM today
       )
       SELECT to_char(first_day, 'YYYY-MM-DD') AS "from", to_char(today, 'YYYY-MM-DD') AS "to",
              today - first_day + 1 AS days,
              CASE WHEN $2::int IS NOT NULL THEN first_day::timestamp AT TIME ZONE $1 END AS since
       FROM first`,
      [tz, PERIOD_DAYS[period]],
    );
    return rows[0]!;
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_PARAMETER_VALUE) throw error;
    // answered like any other bad query parameter: 400 naming tz
    throw new z.ZodError([{ code: 'custom', path: ['tz'], message: 'Unknown time zone.', input: tz }]);
  }
}

type FunnelCounts = Omit<OverviewFunnel['funnel'], 'tiers'> & OverviewFunnel['funnel']['tiers'];

/**
 * The funnel as a cohort: the leads captured in the period, and how far each of them has got.
 * A step counts a lead once however many diagnostics, surveys or payments it has. The diagnostic
 * is done when a result is stored or the flow applied DIAGNOSTIC_COMPLETED (grading stores the
 * result only after the survey, so the event is what shows the drop between the two); the
 * survey comes after the diagnostic in every path, so a surveyed lead counts as diagnosed too.
 */
async function funnelCounts(db: pg.Pool, since: Date | null): Promise<OverviewFunnel['funnel']> {
  const { rows } = await db.query<FunnelCounts>(
    `WITH progress AS (
       SELECT l.tier,
              EXISTS (SELECT 1 FROM survey_responses s WHERE s.lead_id = l.lead_id)
                OR EXISTS (SELECT 1 FROM flows f JOIN flow_events e ON e.flow_id = f.id
                           WHERE f.lead_id = l.lead_id AND e.type = 'SURVEY_SUBMITTED') AS surveyed,
              EXISTS (SELECT 1 FROM diagnostic_results r WHERE r.lead_id = l.lead_id)
                OR EXISTS (SELECT 1 FROM flows f JOIN flow_events e ON e.flow_id = f.id
                           WHERE f.lead_id = l.lead_id AND e.type = 'DIAGNOSTIC_COMPLETED') AS diagnosed,
              (SELECT sum(p.amount_cents) FROM payment_tracking p WHERE p.lead_id = l.lead_id AND p.status = 'succeeded') AS paid_cents,
              EXISTS (SELECT 1 FROM flows f WHERE f.lead_id = l.lead_id AND f.machine = 'assessmentFlow'
                        AND f.snapshot->'context'->'completedPath'->>'booking' = 'booked') AS booked
       FROM leads l
       WHERE $1::timestamptz IS NULL OR l.created_at >= $1
     )
     SELECT (SELECT count(*) FROM site_visits WHERE $1::timestamptz IS NULL OR created_at >= $1)::int AS visits,
            count(*)::int AS captured,
            count(*) FILTER (WHERE diagnosed OR surveyed)::int AS "diagnosticDone",
            count(*) FILTER (WHERE surveyed)::int AS "surveyDone",
            count(*) FILTER (WHERE surveyed AND tier = 'book_call')::int AS book_call,
            count(*) FILTER (WHERE surveyed AND tier = 'homework')::int AS homework,
            count(*) FILTER (WHERE surveyed AND tier = 'nurture')::int AS nurture,
            count(*) FILTER (WHERE surveyed AND tier IS NULL)::int AS ungraded,
            count(paid_cents)::int AS "depositsPaid",
            count(*) FILTER (WHERE booked AND paid_cents IS NOT NULL)::int AS "sessionsBooked",
            coalesce(sum(paid_cents), 0)::int AS "revenueCents"
     FROM progress`,
    [since],
  );
  const { book_call, homework, nurture, ...steps } = rows[0]!;
  return { ...steps, tiers: { book_call, homework, nurture } };
}

/** New leads per day (or week) from `from` to `to`, in the admin's time zone, zero-filled. */
async function leadsPerBucket(
  db: pg.Pool,
  tz: string,
  bounds: Bounds,
  bucket: 'day' | 'week',
): Promise<OverviewFunnel['leadsPerDay']['bars']> {
  const { rows } = await db.query<{ start: string; leads: number }>(
    `WITH series AS (
       SELECT generate_series(date_trunc($4, $2::date::timestamp), $3::date::timestamp, ('1 ' || $4)::interval) AS start
     ), counted AS (
       SELECT date_trunc($4, created_at AT TIME ZONE $1) AS start, count(*) AS leads
       FROM leads
       WHERE created_at >= date_trunc($4, $2::date::timestamp) AT TIME ZONE $1
       GROUP BY 1
     )
     SELECT to_char(start, 'YYYY-MM-DD') AS start, coalesce(counted.leads, 0)::int AS leads
     FROM series LEFT JOIN counted USING (start)
     ORDER BY start`,
    [tz, bounds.from, bounds.to, bucket],
  );
  return rows;
}

export async function fetchOverviewFunnel(db: pg.Pool, query: FunnelQuery): Promise<OverviewFunnel> {
  const bounds = await periodBounds(db, query);
  const bucket = bounds.days > MAX_DAILY_BARS ? 'week' : 'day';
  const [funnel, bars] = await Promise.all([funnelCounts(db, bounds.since), leadsPerBucket(db, query.tz, bounds, bucket)]);
  return { period: query.period, timeZone: query.tz, from: bounds.from, to: bounds.to, funnel, leadsPerDay: { bucket, bars } };
}
