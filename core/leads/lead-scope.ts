import type pg from 'pg';
import { z } from 'zod';
import type { LeadPeriod, LeadScopeQuery } from '#machines/protocol/admin/scope.js';

/**
 * Which leads a count, chart, list or export covers: those created on the days from `from` to `to`
 * (both included, the admin's calendar days in `tz`; null for no bound), real ones only unless
 * `includeTest`. Every admin surface takes its cohort from here, so the same scope gives the same
 * leads on each (decision 0036).
 */
export interface LeadScope {
  from: string | null;
  to: string | null;
  tz: string;
  includeTest: boolean;
}

const PERIOD_DAYS: Record<LeadPeriod, number | null> = { '7d': 7, '30d': 30, all: null };

/** PostgreSQL's "time zone not recognized": a zone the JavaScript runtime knows but the database does not. */
const INVALID_PARAMETER_VALUE = '22023';

/** A period's days in the admin's time zone: the last 7 or 30 days to today, or all time from the first lead's day. */
export interface PeriodDays {
  from: string;
  to: string;
  days: number;
}

/** The days a period covers; an unknown time zone is answered like any bad query parameter (400 naming tz). */
async function periodDays(db: pg.Pool | pg.ClientBase, { period, tz }: Pick<LeadScopeQuery, 'period' | 'tz'>): Promise<PeriodDays> {
  try {
    const { rows } = await db.query<PeriodDays>(
      `WITH today AS (SELECT (now() AT TIME ZONE $1)::date AS today),
       first AS (
         SELECT today, CASE WHEN $2::int IS NULL
                  THEN least(today, coalesce(((SELECT min(created_at) FROM leads) AT TIME ZONE $1)::date, today))
                  ELSE today - ($2::int - 1) END AS first_day
         FROM today
       )
       SELECT to_char(first_day, 'YYYY-MM-DD') AS "from", to_char(today, 'YYYY-MM-DD') AS "to", today - first_day + 1 AS days
       FROM first`,
      [tz, PERIOD_DAYS[period]],
    );
    return rows[0]!;
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_PARAMETER_VALUE) throw error;
    throw new z.ZodError([{ code: 'custom', path: ['tz'], message: 'Unknown time zone.', input: tz }]);
  }
}

/** The scope of an Overview query: its period's days (all time has no lower bound), with its time zone and test switch. */
export async function overviewScope(db: pg.Pool, query: LeadScopeQuery): Promise<LeadScope & { days: PeriodDays }> {
  const days = await periodDays(db, query);
  return { from: query.period === 'all' ? null : days.from, to: null, tz: query.tz, includeTest: query.includeTest, days };
}

/** What an Overview answer says of the scope it counts, shown beside its figures: the period, its days, the zone and the test switch. */
export function scopeAnswered(query: LeadScopeQuery, { days }: { days: PeriodDays }) {
  return { period: query.period, timeZone: query.tz, includeTest: query.includeTest, from: days.from, to: days.to };
}

/** Adds `value` to the query's parameters and answers its placeholder. */
export function bind(params: unknown[], value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}

/**
 * Conditions keeping a row whose `column` (a timestamptz) falls on the scope's days, for the
 * cohort of leads (lead_facts' created_at) or of flows (flows.created_at).
 */
export function createdIn(scope: LeadScope, column: string, params: unknown[]): string[] {
  const conditions: string[] = [];
  if (scope.from) conditions.push(`${column} >= ${bind(params, scope.from)}::date::timestamp AT TIME ZONE ${bind(params, scope.tz)}`);
  if (scope.to) conditions.push(`${column} < (${bind(params, scope.to)}::date + 1)::timestamp AT TIME ZONE ${bind(params, scope.tz)}`);
  return conditions;
}

/**
 * The scope's leads as a FROM item (`lead_facts(...) f`, the cohort's days passed in as its bounds,
 * so each of its parts aggregates that cohort alone) and the conditions callers add to.
 */
export function leadsIn(scope: LeadScope, params: unknown[], alias = 'f'): { from: string; where: string[] } {
  const includeTest = bind(params, scope.includeTest);
  const from = scope.from ? `${bind(params, scope.from)}::date::timestamp AT TIME ZONE ${bind(params, scope.tz)}` : 'NULL';
  const before = scope.to ? `(${bind(params, scope.to)}::date + 1)::timestamp AT TIME ZONE ${bind(params, scope.tz)}` : 'NULL';
  return { from: `lead_facts(${includeTest}, ${from}, ${before}) ${alias}`, where: [] };
}

/** The counted facts lead_summaries keeps twice: with test payments, and without (`<name>_live`). */
type PaymentFact = 'deposit_paid' | 'homework_paid' | 'session_booked' | 'revenue_cents';

/**
 * The scope's leads as their kept summaries (lead_summaries aliased `alias`, decision 0055): each
 * lead's lead_facts row as its owners last wrote it, for counts over many leads. `fact` names a
 * payment fact's column for the scope (test payments counted only when test data is included).
 */
export function leadSummariesIn(
  scope: LeadScope,
  params: unknown[],
  alias = 's',
): { from: string; where: string[]; fact: (name: PaymentFact) => string } {
  const where = createdIn(scope, `${alias}.created_at`, params);
  if (!scope.includeTest) where.push(`NOT ${alias}.test`);
  const fact = (name: PaymentFact) =>
    scope.includeTest ? `${alias}.${name}` : name === 'revenue_cents' ? `${alias}.revenue_live_cents` : `${alias}.${name}_live`;
  return { from: `lead_summaries ${alias}`, where, fact };
}

/**
 * Conditions keeping the Mirror sessions (aliased `alias`) of the scope: started on its days, and
 * real unless test data is included (a session is a test when its flow is, or its lead, saved with
 * it or through its flow, is a test lead). The lead's test fact is read from its kept summary (one
 * primary-key look-up per session).
 */
export function mirrorSessionsIn(scope: LeadScope, params: unknown[], alias = 'm'): string[] {
  const conditions = createdIn(scope, `${alias}.created_at`, params);
  if (!scope.includeTest) {
    conditions.push(`NOT coalesce((SELECT f.testing FROM flows f WHERE f.id = ${alias}.flow_id), false)`);
    conditions.push(
      `NOT coalesce((SELECT l.test FROM lead_summaries l
                     WHERE l.lead_id = coalesce(${alias}.lead_id, (SELECT f.lead_id FROM flows f WHERE f.id = ${alias}.flow_id))), false)`,
    );
  }
  return conditions;
}

/** `WHERE a AND b`, or nothing for no conditions. */
export function whereAll(conditions: readonly string[]): string {
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}
