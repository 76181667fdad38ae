import { createHash } from 'node:crypto';
import type pg from 'pg';
import { leadFactsSchema } from '#machines/protocol/admin/lead-facts.js';

/*
 * The one definition of what is known about a lead: every screen, export, counter, email and
 * webhook that says something about a lead reads it from `lead_facts(include_test)`, a SQL
 * function over the tables their owners write (decision 0036). It is defined here, not in a
 * migration, so the definition reads in one place; `installLeadFacts` (re)creates it when the
 * server migrates, and only when this text changed.
 *
 * - test: the lead was captured in testing mode (its flow was a test flow when it captured; the
 *   tag is written once, by the lead service). `include_test` false leaves test leads out, and
 *   also every payment made in test-payment mode (no money moved).
 * - tier, archetype, scores: the lead's latest result that is an outcome, a re-grade's included.
 *   A rushed attempt (gaming detected, "Let's Take That Again") is an attempt, never an outcome.
 *   Two scores, each with its own name (machines/grading/score-names.ts): the leadership score
 *   (the diagnostic's composite, what the lead is shown) and the qualification score (the
 *   weighted total that decides the tier, for the coach).
 * - attempts: assessments submitted and graded (re-grades are not attempts); rushed_attempts of
 *   them were sent back to retake.
 * - diagnostic_done, survey_done: the lead finished a diagnostic (or the survey) that was not sent
 *   back as rushed. Grading stores both only after the survey, so a flow's DIAGNOSTIC_COMPLETED
 *   (or SURVEY_SUBMITTED) counts too, unless that flow's next grading found it rushed: the engine
 *   keeps that on the flow's row as it applies each event (flows.diagnostic_done / survey_done,
 *   core/flows/flow-progress.ts, decision 0055).
 * - deposit: the latest deposit that went through: paid, refunded or none; booking: where its
 *   strategy session stands as the scheduling provider reported it (a refund does not cancel a
 *   booked session: the coach does, at the scheduler), read with the reminder to book from the
 *   deposit flow's row (columns PostgreSQL derives from its snapshot as it is written), and the
 *   session's time and who cancelled it from that flow's latest booking event.
 * - revenue_cents: what the lead's succeeded payments brought in; a refunded payment brings in
 *   nothing.
 *
 * Its shape is for 100,000 leads and more (decision 0041): each fact comes from a part aggregated
 * per lead (GROUP BY or DISTINCT ON lead_id) joined on the lead, never a subquery run once per lead
 * (the one look-up per deposit is for its booking event, decision 0058), so a count over every
 * lead is a few hash joins over covering indexes
 * (migrations/1765501200000_admin-scale-indexes.sql), a lookup of one lead is pushed into every
 * part by PostgreSQL, and a part a query does not read is left out of its plan. `created_from` and
 * `created_before` (optional) bound the cohort by creation time, inside each part too: a period's
 * Overview aggregates that period's rows only (core/leads/lead-scope.ts passes them). `only_leads`
 * (optional) names the leads wanted: a page is chosen first on the few facts its order and filters
 * read, then its rows' facts are read for those leads alone (server/admin/leads-queries.ts).
 */

/**
 * Keeps the rows of a pre-aggregated part whose lead (`column`) is in the cohort asked for: every
 * lead when no bound is given (the condition folds away), else the leads created in the bounds, so a
 * period's Overview aggregates that period's rows only; and only the leads named in `only_leads`
 * when given (a page of the table, a batch of the CSV: a few index look-ups per part).
 */
function inCohort(column: string): string {
  return `(created_from IS NULL AND created_before IS NULL OR ${column} IN (
      SELECT c.lead_id FROM leads c
      WHERE c.created_at >= coalesce(created_from, '-infinity') AND c.created_at < coalesce(created_before, 'infinity')))
    AND (only_leads IS NULL OR ${column} = ANY (only_leads))`;
}

/**
 * The definition's query: every fact of the leads `leads` (a condition on leads aliased l) keeps,
 * each part narrowed to the same leads by `part` (a condition on its lead column); test payments
 * counted when `includeTest` (SQL) is true. Composed once into lead_facts, and once into the
 * statement that keeps lead_summaries, so both say the same.
 */
function factsSelect(includeTest: string, part: (column: string) => string, leads: string): string {
  return `
  SELECT l.lead_id, l.email, l.name, l.source, l.tags, l.created_at, l.updated_at,
         'test' = ANY (l.tags) AS test,
         g.id, g.tier, g.archetype, g.composite_score::float8 AS leadership_score, g.total_score::float8 AS qualification_score, g.fallback, g.created_at AS graded_at,
         coalesce(att.attempts, 0), coalesce(att.rushed, 0),
         g.id IS NOT NULL OR dd.lead_id IS NOT NULL OR coalesce(fe.diagnostic, false) AS diagnostic_done,
         g.id IS NOT NULL OR coalesce(fe.survey, false) AS survey_done,
         CASE dep.status WHEN 'succeeded' THEN 'paid' WHEN 'refunded' THEN 'refunded' ELSE 'none' END AS deposit,
         dep.test_mode, dep.amount_cents, dep.created_at AS deposit_paid_at, dep.refunded_at, dep.flow_id,
         coalesce(pay.homework_paid, false) AS homework_paid, coalesce(pay.revenue_cents, 0) AS revenue_cents,
         CASE WHEN dep.flow_id IS NULL THEN 'none' ELSE coalesce(df.booking, 'none') END AS booking,
         CASE WHEN dep.session_event = 'SESSION_BOOKED' THEN dep.session_payload->>'startsAt' END,
         dep.session_payload->>'provider',
         coalesce(dep.session_event = 'SESSION_CANCELED', false),
         CASE WHEN dep.session_event = 'SESSION_CANCELED' THEN dep.session_payload->>'canceledBy' END,
         dep.session_changed_at,
         coalesce(df.reminded_to_book, false)
  FROM leads l
  LEFT JOIN (
    SELECT DISTINCT ON (r.lead_id) r.lead_id, r.id, r.tier, r.archetype, r.composite_score, r.total_score, r.fallback, r.created_at
    FROM assessment_results r
    WHERE NOT r.gaming_detected AND ${part('r.lead_id')}
    ORDER BY r.lead_id, r.created_at DESC, r.id DESC
  ) g ON g.lead_id = l.lead_id
  LEFT JOIN (
    SELECT r.lead_id, count(*)::int AS attempts, count(*) FILTER (WHERE r.gaming_detected)::int AS rushed
    FROM assessment_results r
    WHERE r.application_id IS NULL AND ${part('r.lead_id')}
    GROUP BY r.lead_id
  ) att ON att.lead_id = l.lead_id
  LEFT JOIN (
    SELECT DISTINCT d.lead_id FROM diagnostic_results d
    WHERE ${part('d.lead_id')}
      AND NOT EXISTS (SELECT 1 FROM assessment_results r WHERE r.diagnostic_id = d.diagnostic_id AND r.gaming_detected)
  ) dd ON dd.lead_id = l.lead_id
  LEFT JOIN (
    SELECT f.lead_id, bool_or(f.diagnostic_done) AS diagnostic, bool_or(f.survey_done) AS survey
    FROM flows f
    WHERE (f.diagnostic_done OR f.survey_done) AND f.lead_id IS NOT NULL AND ${part('f.lead_id')}
    GROUP BY f.lead_id
  ) fe ON fe.lead_id = l.lead_id
  LEFT JOIN (
    SELECT DISTINCT ON (p.lead_id) p.lead_id, p.status, p.test_mode, p.amount_cents, p.created_at, p.refunded_at, p.flow_id,
           be.session_event, be.session_payload, be.session_changed_at
    FROM payment_tracking p
    -- the deposit flow's latest booking change: one look-up per deposit (flow_events_session_idx)
    LEFT JOIN LATERAL (
      SELECT e.type AS session_event, e.payload AS session_payload, e.created_at AS session_changed_at
      FROM flow_events e
      WHERE e.flow_id = p.flow_id AND e.type IN ('SESSION_BOOKED', 'SESSION_CANCELED')
      ORDER BY e.seq DESC
      LIMIT 1
    ) be ON true
    WHERE p.purpose = 'deposit' AND p.status IN ('succeeded', 'refunded') AND (${includeTest} OR NOT p.test_mode)
      AND ${part('p.lead_id')}
    ORDER BY p.lead_id, p.created_at DESC, p.id DESC
  ) dep ON dep.lead_id = l.lead_id
  LEFT JOIN (
    SELECT p.lead_id, bool_or(p.purpose = 'paid_homework') AS homework_paid, sum(p.amount_cents)::int AS revenue_cents
    FROM payment_tracking p
    WHERE p.status = 'succeeded' AND (${includeTest} OR NOT p.test_mode) AND ${part('p.lead_id')}
    GROUP BY p.lead_id
  ) pay ON pay.lead_id = l.lead_id
  LEFT JOIN flows df ON df.id = dep.flow_id
  WHERE (${includeTest} OR NOT ('test' = ANY (l.tags))) AND ${leads}`;
}

const LEAD_FACTS_SQL = `
CREATE FUNCTION lead_facts(
  include_test boolean, created_from timestamptz DEFAULT NULL, created_before timestamptz DEFAULT NULL, only_leads uuid[] DEFAULT NULL
)
RETURNS TABLE (
  lead_id uuid, email text, name text, source text, tags text[], created_at timestamptz, updated_at timestamptz,
  test boolean,
  result_id uuid, tier text, archetype text, leadership_score float8, qualification_score float8, fallback boolean, graded_at timestamptz,
  attempts int, rushed_attempts int, diagnostic_done boolean, survey_done boolean,
  deposit text, deposit_test_mode boolean, deposit_cents int, deposit_paid_at timestamptz, deposit_refunded_at timestamptz, deposit_flow_id uuid,
  homework_paid boolean, revenue_cents int,
  booking text, session_starts_at text, session_provider text, session_canceled boolean, session_canceled_by text,
  session_changed_at timestamptz, reminded_to_book boolean
)
LANGUAGE sql STABLE AS $fn$
${factsSelect(
  'include_test',
  inCohort,
  `l.created_at >= coalesce(created_from, '-infinity') AND l.created_at < coalesce(created_before, 'infinity')
    AND (only_leads IS NULL OR l.lead_id = ANY (only_leads))`,
)}
$fn$`;

/** What lead_summaries keeps of a lead's facts, by column, from its lead_facts row with (t) and without (l) test payments. */
const SUMMARY_COLUMNS: ReadonlyArray<[string, string]> = [
  ['lead_id', 't.lead_id'],
  ['created_at', 't.created_at'],
  ['test', 't.test'],
  ['diagnostic_done', 't.diagnostic_done'],
  ['survey_done', 't.survey_done'],
  ['tier', 't.tier'],
  ['leadership_score', 't.leadership_score'],
  ['qualification_score', 't.qualification_score'],
  ['deposit_paid', "t.deposit = 'paid'"],
  ['homework_paid', 't.homework_paid'],
  ['session_booked', "t.deposit = 'paid' AND t.booking = 'booked'"],
  ['revenue_cents', 't.revenue_cents'],
  // a test lead has no row without test data: it is never counted there
  ['deposit_paid_live', "coalesce(l.deposit = 'paid', false)"],
  ['homework_paid_live', 'coalesce(l.homework_paid, false)'],
  ['session_booked_live', "coalesce(l.deposit = 'paid' AND l.booking = 'booked', false)"],
  ['revenue_live_cents', 'coalesce(l.revenue_cents, 0)'],
];

/** Writes the lead_summaries rows of the leads `t` and `l` hold (each lead's lead_facts row with and without test payments). */
function summaryUpsert(t: string, l: string): string {
  return `INSERT INTO lead_summaries (${SUMMARY_COLUMNS.map(([column]) => column).join(', ')})
    SELECT ${SUMMARY_COLUMNS.map(([, value]) => value).join(', ')}
    FROM ${t} t LEFT JOIN ${l} l ON l.lead_id = t.lead_id
    ON CONFLICT (lead_id) DO UPDATE SET ${SUMMARY_COLUMNS.slice(1)
      .map(([column]) => `${column} = excluded.${column}`)
      .join(', ')}`;
}

/** Every lead's summary, from lead_facts: when the definition is installed or changed. */
const SUMMARIZE_ALL_SQL = summaryUpsert('lead_facts(true)', 'lead_facts(false)');

/** Writes every lead's summary from lead_facts (the definition installed, or leads written in bulk by a seed or fixture). */
export async function refreshAllLeadFacts(db: Pick<pg.ClientBase, 'query'>): Promise<void> {
  await db.query(SUMMARIZE_ALL_SQL);
}

/** Writes the summaries of the leads `lead` (a condition on a lead column) keeps: the definition's query narrowed by index look-ups. */
const summarizeWhere = (lead: (column: string) => string) =>
  summaryUpsert(`(${factsSelect('true', lead, lead('l.lead_id'))})`, `(${factsSelect('false', lead, lead('l.lead_id'))})`);

/** The summaries of the leads in $1 (uuid[]). */
const SUMMARIZE_LEADS_SQL = summarizeWhere((column) => `${column} = ANY ($1::uuid[])`);

/**
 * The summary of the one lead $1 (uuid): the common case (a capture, a result, an event, a payment).
 * Planning the definition's query twice over costs about five times its execution (about 2.7 ms
 * against 0.5 at 100,000 leads); PostgreSQL plans a named statement on one key once per
 * connection and reuses the plan, while for an array of ids it plans again at every call.
 */
const SUMMARIZE_LEAD_SQL = summarizeWhere((column) => `${column} = $1::uuid`);

/**
 * Keeps the summaries of these leads (lead_summaries, decision 0055) equal to their lead_facts:
 * called by the owner of every table a counted fact is read from, in the transaction that changes
 * it (a lead captured, a result stored, a flow's "done" or booking changed, a payment moved). One
 * statement; null ids (a flow without a lead) are skipped; a deleted lead's row goes with it.
 */
export async function refreshLeadFacts(db: Pick<pg.ClientBase, 'query'>, leadIds: ReadonlyArray<string | null | undefined>): Promise<void> {
  const ids = [...new Set(leadIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return;
  if (ids.length === 1) await db.query({ name: 'refresh-lead-fact', text: SUMMARIZE_LEAD_SQL, values: ids });
  else await db.query({ name: 'refresh-lead-facts', text: SUMMARIZE_LEADS_SQL, values: [ids] });
}

/** The fingerprint kept as the function's comment: the server replaces the function only when the text above changed. */
const FINGERPRINT = createHash('sha256').update(LEAD_FACTS_SQL).update(SUMMARIZE_ALL_SQL).digest('hex').slice(0, 16);

/** Serialises two processes starting at once: one replaces, the other then finds it current. */
const INSTALL_LOCK = 7_316_220_165;

/**
 * Creates lead_facts, or replaces it when this build's definition differs from the stored one, and
 * then writes every lead's summary from it. Runs after the migrations, in one transaction: a reader
 * sees the old definition and summaries or the new.
 */
export async function installLeadFacts(client: pg.ClientBase): Promise<boolean> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [INSTALL_LOCK]);
    const current = await client.query<{ comment: string | null }>(
      `SELECT obj_description(p.oid, 'pg_proc') AS comment FROM pg_proc p
       JOIN pg_namespace n ON n.oid = p.pronamespace AND n.nspname = current_schema()
       WHERE p.proname = 'lead_facts'`,
    );
    if (current.rows.length === 1 && current.rows[0]!.comment === FINGERPRINT) {
      await client.query('COMMIT');
      return false;
    }
    await client.query('DROP FUNCTION IF EXISTS lead_facts(boolean)');
    await client.query('DROP FUNCTION IF EXISTS lead_facts(boolean, timestamptz, timestamptz)');
    await client.query('DROP FUNCTION IF EXISTS lead_facts(boolean, timestamptz, timestamptz, uuid[])');
    await client.query(LEAD_FACTS_SQL);
    await client.query(`COMMENT ON FUNCTION lead_facts(boolean, timestamptz, timestamptz, uuid[]) IS '${FINGERPRINT}'`);
    // what was kept under the old definition is recomputed under the new one, in the same transaction
    await client.query(SUMMARIZE_ALL_SQL);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** The columns of a lead_facts row aliased `alias`, named as leadFactsSchema names them. */
export function leadFactsColumns(alias = 'f'): string {
  return Object.keys(leadFactsSchema.shape)
    .map((key) => (key === 'id' ? `${alias}.lead_id AS id` : `${alias}.${key}`))
    .join(', ');
}
