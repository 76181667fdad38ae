import type pg from 'pg';
import { inTransaction } from '#core/db/transaction.js';
import { isOlderSurvey } from '#machines/grading/older-survey.js';
import { diagnosticSectionViews, surveyAnswerViews, type StoredDiagnosticAnswer } from './lead-answers.js';
import { listLeadNotes } from './queries.js';
import { deleteAttemptFlowsOf } from '#core/flows/flow-store.js';
import { attemptsOfLead } from '#core/leads/lead-attempts.js';
import type { LeadDetail, LeadFilters, LeadListQuery, LeadPage } from '#machines/protocol/admin/leads.js';
import { leadFactsColumns } from '#core/leads/lead-facts.js';
import { bind, leadsIn, leadSummariesIn, whereAll } from '#core/leads/lead-scope.js';
import { deleteLeadRow } from '#core/leads/lead-service.js';
import { deleteUnclaimedTokensFor } from '#core/leads/tokens.js';
import { deleteJobsNamingOnlyLead } from '#core/queues/outbox.js';
import { SENT_EMAIL_COLUMNS } from './sent-emails.js';
import { deleteUnmatchedBookingsFor } from '#core/scheduling/scheduled-bookings.js';

/** Rows the CSV export reads from its cursor at a time: the server holds one batch, whatever the number of leads. */
const CSV_BATCH = 1_000;

type LeadRow = LeadPage['items'][number];

/** Escapes LIKE's wildcards so a search for `50%` or `a_b` matches those characters literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The table orders and filters whose facts lead_summaries keeps: a page chosen on them reads the kept facts. */
function readsKeptFacts(filters: LeadFilters): boolean {
  return filters.sort === 'leadership_score' || filters.sort === 'qualification_score' || Boolean(filters.tier);
}

/**
 * The table's leads as a FROM item and its WHERE clause: the scope (days in the admin's time zone,
 * test leads only when included) as on the Overview, then the table's own filters. An order by a
 * score or a tier filter reads each lead's kept facts (lead_summaries, decision 0055: an index in
 * score order, not every lead's results), joined to leads only for a filter on the lead's own
 * columns; the others read lead_facts, which leaves out the parts they do not read.
 */
function filtered(filters: LeadFilters): { sql: string; params: unknown[]; order: string } {
  const params: unknown[] = [];
  const scope = { from: filters.from ?? null, to: filters.to ?? null, tz: filters.tz, includeTest: filters.includeTest };
  let from: string;
  let where: string[];
  let lead = 'f';
  if (readsKeptFacts(filters)) {
    ({ from, where } = leadSummariesIn(scope, params, 'f'));
    if (filters.q || filters.source || filters.tag || filters.sort === 'email') {
      from = `${from} JOIN leads l ON l.lead_id = f.lead_id`;
      lead = 'l';
    }
  } else {
    ({ from, where } = leadsIn(scope, params));
  }
  if (filters.q) {
    const pattern = bind(params, `%${escapeLike(filters.q)}%`);
    where.push(`(${lead}.name ILIKE ${pattern} OR ${lead}.email ILIKE ${pattern})`);
  }
  if (filters.source) where.push(`${lead}.source = ${bind(params, filters.source)}`);
  if (filters.tier) where.push(`f.tier = ${bind(params, filters.tier)}`);
  if (filters.tag) where.push(`${bind(params, filters.tag)} = ANY (${lead}.tags)`);
  return { sql: `${from} ${whereAll(where)}`, params, order: orderFor(filters, lead) };
}

/**
 * ORDER BY from the whitelisted sort and direction only; the id breaks ties so pages never overlap.
 * Only the scores can be missing (and go last); the never-null columns keep PostgreSQL's default
 * null order, which lets a deep page newest or oldest first walk leads_created_at_idx instead of
 * sorting every lead (page 2000 of 25: 86 ms to 30 ms executing at 100,000 leads).
 */
function orderFor(filters: LeadFilters, lead = 'f'): string {
  const dir = filters.dir === 'asc' ? 'ASC' : 'DESC';
  const order = {
    created_at: `f.created_at ${dir}`,
    email: `lower(${lead}.email) ${dir}`,
    leadership_score: `f.leadership_score ${dir} NULLS LAST`,
    qualification_score: `f.qualification_score ${dir} NULLS LAST`,
  }[filters.sort];
  return `ORDER BY ${order}, f.lead_id ${dir}`;
}

/**
 * The facts of the leads `ids` (a page, a batch of the export), in the table's order. The leads
 * are chosen first on the facts their order and filters read (lead_facts leaves out the parts a
 * query does not read), then read whole for those leads alone (decision 0041).
 */
async function factsOf(db: Pick<pg.ClientBase, 'query'>, filters: LeadFilters, ids: string[]): Promise<LeadRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<LeadRow>(
    `SELECT ${leadFactsColumns()} FROM lead_facts($1, NULL, NULL, $2::uuid[]) f ${orderFor(filters)}`,
    [filters.includeTest, ids],
  );
  return rows;
}

/** One page of the admin lead table, with the total of the filtered set. */
export async function listLeads(db: pg.Pool, query: LeadListQuery): Promise<LeadPage> {
  const { sql, params, order } = filtered(query);
  const offset = (query.page - 1) * query.pageSize;
  const [page, total] = await Promise.all([
    db.query<{ lead_id: string }>(`SELECT f.lead_id FROM ${sql} ${order} LIMIT ${query.pageSize} OFFSET ${offset}`, params),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${sql}`, params),
  ]);
  const items = await factsOf(
    db,
    query,
    page.rows.map((row) => row.lead_id),
  );
  return { items, total: total.rows[0]!.total, page: query.page, pageSize: query.pageSize };
}

/** A CSV cell: quoted when needed; a cell a spreadsheet would run as a formula gets a leading quote. */
export function csvCell(value: string | number | boolean | Date | readonly string[] | null | undefined): string {
  let text =
    value === null || value === undefined
      ? ''
      : value instanceof Date
        ? value.toISOString()
        : Array.isArray(value)
          ? value.join(';')
          : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The export's columns: the lead's facts as the table and the lead page name them. */
const CSV_COLUMNS = [
  'id',
  'email',
  'name',
  'source',
  'tags',
  'test',
  'tier',
  'archetype',
  'leadership_score',
  'qualification_score',
  'attempts',
  'rushed_attempts',
  'deposit',
  'booking',
  'revenue_cents',
  'created_at',
] as const satisfies ReadonlyArray<keyof LeadRow>;

/**
 * The whole filtered set, in the table's order, as CSV lines (a header row, CRLF line ends): the
 * leads read through a cursor a batch at a time, each batch's facts read for it alone, so an export
 * of every lead streams in flat memory. The cursor
 * lives in a read-only transaction on a client of its own, released when the last batch is read or
 * the download is abandoned.
 */
export async function* leadsCsv(db: pg.Pool, filters: LeadFilters): AsyncGenerator<string> {
  const { sql, params, order } = filtered(filters);
  const client = await db.connect();
  let finished = false;
  try {
    // one snapshot for the cursor and every batch read beside it
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`DECLARE leads_csv NO SCROLL CURSOR FOR SELECT f.lead_id FROM ${sql} ${order}`, params);
    yield `${CSV_COLUMNS.join(',')}\r\n`;
    for (;;) {
      const batch = await client.query<{ lead_id: string }>(`FETCH ${CSV_BATCH} FROM leads_csv`);
      if (batch.rows.length === 0) break;
      const rows = await factsOf(
        client,
        filters,
        batch.rows.map((row) => row.lead_id),
      );
      yield rows.map((row) => `${CSV_COLUMNS.map((column) => csvCell(row[column])).join(',')}\r\n`).join('');
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    if (!finished) await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}

/** Everything known about one lead, for its admin page; null when there is no such lead. */
export async function leadDetail(db: pg.Pool, leadId: string): Promise<LeadDetail | null> {
  const lead = await db.query<LeadDetail['lead']>(`SELECT ${leadFactsColumns()} FROM lead_facts(true) f WHERE f.lead_id = $1`, [leadId]);
  if (!lead.rowCount) return null;
  // rows tied to the lead directly or through one of its flows
  const flowIds = `(SELECT id FROM flows WHERE lead_id = $1)`;
  const [result, results, diagnostics, surveys, mirrorSessions, payments, emails, jobs, notes, flows, attempts] = await Promise.all([
    db.query<NonNullable<LeadDetail['result']>>(
      // the result lead_facts reads the tier and scores from
      `SELECT id, tier, qualification, archetype, composite_score::float8 AS leadership_score, total_score::float8 AS qualification_score,
              diagnostic_score::float8 AS diagnostic_score, survey_score::float8 AS survey_score, mirror_score::float8 AS mirror_score,
              fallback,
              CASE WHEN jsonb_typeof(result->'scores') = 'object' THEN result->'scores' ELSE '{}' END AS scores,
              CASE WHEN jsonb_typeof(result->'qualificationReasoning') = 'array' THEN result->'qualificationReasoning' ELSE '[]' END AS "qualificationReasoning",
              CASE WHEN jsonb_typeof(result->'rulesFired') = 'array' THEN result->'rulesFired' ELSE '[]' END AS "rulesFired",
              grading_version, result->>'narrative' AS narrative, created_at
       FROM assessment_results WHERE id = $1`,
      [lead.rows[0]!.result_id],
    ),
    db.query<LeadDetail['results'][number]>(
      `SELECT id, tier, gaming_detected AS rushed, total_score::float8 AS qualification_score, grading_version,
              application_id IS NOT NULL AS regraded, created_at
       FROM assessment_results WHERE lead_id = $1 ORDER BY created_at DESC, id LIMIT 50`,
      [leadId],
    ),
    db.query<{ id: string; bank_version: string; started_at: Date; has_report: boolean; answers: StoredDiagnosticAnswer[] }>(
      `SELECT d.id, d.bank_version, d.started_at, d.answers,
              EXISTS (SELECT 1 FROM diagnostic_results r WHERE r.diagnostic_id = d.id) AS has_report
       FROM diagnostics d
       WHERE (d.lead_id = $1 OR d.flow_id IN ${flowIds}) AND jsonb_array_length(d.answers) > 0
       ORDER BY d.started_at DESC, d.id`,
      [leadId],
    ),
    db.query<{ id: string; answers: Record<string, unknown>; survey_score: number | null; created_at: Date }>(
      'SELECT id, answers, survey_score::float8 AS survey_score, created_at FROM survey_responses WHERE lead_id = $1 ORDER BY created_at DESC',
      [leadId],
    ),
    db.query<LeadDetail['mirrorSessions'][number]>(
      `SELECT s.id, s.saved, s.turns::int AS turns, s.completed, s.created_at,
              coalesce((SELECT json_agg(json_build_object('role', m.role, 'content', m.content, 'turn', m.turn, 'created_at', m.created_at) ORDER BY m.id)
                        FROM mirror_messages m WHERE m.session_id = s.id), '[]') AS messages
       FROM mirror_sessions s WHERE s.lead_id = $1 OR s.flow_id IN ${flowIds} ORDER BY s.created_at DESC`,
      [leadId],
    ),
    db.query<LeadDetail['payments'][number]>(
      `SELECT id, purpose, amount_cents, currency, status, test_mode, payment_intent_id, refunded_at, created_at
       FROM payment_tracking WHERE lead_id = $1 ORDER BY created_at DESC`,
      [leadId],
    ),
    db.query<LeadDetail['emails'][number]>(`SELECT ${SENT_EMAIL_COLUMNS} FROM email_outbox WHERE lead_id = $1 ORDER BY created_at DESC`, [
      leadId,
    ]),
    db.query<LeadDetail['jobs'][number]>(
      `SELECT id, queue, name, status, attempts, max_attempts, last_error, created_at, finished_at,
              coalesce(result->>'skipped', CASE WHEN result->>'status' = 'skipped' THEN result->>'reason' END) AS skipped
       FROM jobs WHERE lead_id = $1 OR flow_id IN ${flowIds} ORDER BY created_at DESC, id LIMIT 200`,
      [leadId],
    ),
    listLeadNotes(db, leadId),
    db.query<LeadDetail['flows'][number]>(
      `SELECT f.id, f.machine, f.mode, f.state, f.testing, f.created_at, f.updated_at,
              coalesce((SELECT json_agg(json_build_object('seq', e.seq, 'type', e.type, 'payload', e.payload, 'origin', e.origin,
                                                          'state_after', e.state_after, 'created_at', e.created_at) ORDER BY e.seq)
                        FROM flow_events e WHERE e.flow_id = f.id), '[]') AS events
       FROM flows f WHERE f.lead_id = $1 ORDER BY f.created_at`,
      [leadId],
    ),
    attemptsOfLead(db, leadId),
  ]);
  return {
    lead: lead.rows[0]!,
    result: result.rows[0] ?? null,
    results: results.rows,
    diagnostics: diagnostics.rows.map(({ answers, ...diagnostic }) => ({
      ...diagnostic,
      sections: diagnosticSectionViews(diagnostic.bank_version, answers),
    })),
    surveys: surveys.rows.map((survey) => ({
      ...survey,
      shape: isOlderSurvey(survey.answers) ? ('older' as const) : ('current' as const),
      answers: surveyAnswerViews(survey.answers),
    })),
    mirrorSessions: mirrorSessions.rows,
    payments: payments.rows,
    emails: emails.rows,
    jobs: jobs.rows,
    notes: notes ?? [],
    flows: flows.rows,
    captureAttempts: attempts,
  };
}

/**
 * A data-protection erase: the lead and everything about it. Every table holding a lead_id
 * cascades from leads (flows cascade to their events, jobs, diagnostics, mirror sessions); on top
 * of that this clears rows that only name the lead by address or in a payload: unclaimed lead
 * tokens for its email and outbox jobs whose payload carries its id. One transaction.
 */
export async function deleteLead(db: pg.Pool, leadId: string): Promise<boolean> {
  return inTransaction(db, async (client) => {
    const lead = await client.query<{ email: string }>('SELECT email FROM leads WHERE lead_id = $1 FOR UPDATE', [leadId]);
    if (!lead.rowCount) return false;
    const email = lead.rows[0]!.email;
    await deleteUnclaimedTokensFor(client, email);
    await deleteUnmatchedBookingsFor(client, email);
    await deleteJobsNamingOnlyLead(client, leadId);
    await deleteAttemptFlowsOf(client, leadId);
    await deleteLeadRow(client, leadId);
    return true;
  });
}
