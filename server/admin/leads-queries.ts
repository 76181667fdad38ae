import type pg from 'pg';
import { inTransaction } from '#core/db/transaction.js';
import { isOlderSurvey } from '#machines/grading/older-survey.js';
import { diagnosticSectionViews, surveyAnswerViews, type StoredDiagnosticAnswer } from './lead-answers.js';
import { listLeadNotes } from './queries.js';
import type { LeadDetail, LeadFilters, LeadListQuery, LeadPage } from '#machines/protocol/admin/leads.js';

/** The CSV export stops at this many rows. */
const LEADS_CSV_LIMIT = 10_000;

type LeadRow = LeadPage['items'][number];

const LEAD_COLUMNS = 'lead_id AS id, email, name, source, tier, archetype, total_score::float8 AS total_score, tags, created_at';

/** Escapes LIKE's wildcards so a search for `50%` or `a_b` matches those characters literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The WHERE clause and its parameters for the table's filters; dates are whole UTC days, both ends included. */
function whereFor(filters: LeadFilters): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (filters.q) add((p) => `(name ILIKE ${p} OR email ILIKE ${p})`, `%${escapeLike(filters.q)}%`);
  if (filters.source) add((p) => `source = ${p}`, filters.source);
  if (filters.tier) add((p) => `tier = ${p}`, filters.tier);
  if (filters.tag) add((p) => `${p} = ANY (tags)`, filters.tag);
  if (filters.from) add((p) => `created_at >= ${p}::date AT TIME ZONE 'UTC'`, filters.from);
  if (filters.to) add((p) => `created_at < (${p}::date + 1) AT TIME ZONE 'UTC'`, filters.to);
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** ORDER BY from the whitelisted sort and direction only; the id breaks ties so pages never overlap. */
function orderFor(filters: LeadFilters): string {
  const dir = filters.dir === 'asc' ? 'ASC' : 'DESC';
  const column = { created_at: 'created_at', email: 'lower(email)', total_score: 'total_score' }[filters.sort];
  return `ORDER BY ${column} ${dir} NULLS LAST, lead_id ${dir}`;
}

/** One page of the admin lead table, with the total of the filtered set. */
export async function listLeads(db: pg.Pool, query: LeadListQuery): Promise<LeadPage> {
  const { where, params } = whereFor(query);
  const offset = (query.page - 1) * query.pageSize;
  const [items, total] = await Promise.all([
    db.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads ${where} ${orderFor(query)} LIMIT ${query.pageSize} OFFSET ${offset}`, params),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM leads ${where}`, params),
  ]);
  return { items: items.rows, total: total.rows[0]!.total, page: query.page, pageSize: query.pageSize };
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

const CSV_COLUMNS = ['id', 'email', 'name', 'source', 'tier', 'archetype', 'total_score', 'tags', 'created_at'] as const;

/** The filtered set (in the table's order, capped) as CSV with a header row and CRLF line ends. */
export async function leadsCsv(db: pg.Pool, filters: LeadFilters): Promise<string> {
  const { where, params } = whereFor(filters);
  const { rows } = await db.query<LeadRow>(
    `SELECT ${LEAD_COLUMNS} FROM leads ${where} ${orderFor(filters)} LIMIT ${LEADS_CSV_LIMIT}`,
    params,
  );
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) lines.push(CSV_COLUMNS.map((column) => csvCell(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Everything known about one lead, for its admin page; null when there is no such lead. */
export async function leadDetail(db: pg.Pool, leadId: string): Promise<LeadDetail | null> {
  const lead = await db.query<LeadDetail['lead']>(`SELECT ${LEAD_COLUMNS}, updated_at FROM leads WHERE lead_id = $1`, [leadId]);
  if (!lead.rowCount) return null;
  // rows tied to the lead directly or through one of its flows
  const flowIds = `(SELECT id FROM flows WHERE lead_id = $1)`;
  const [result, results, diagnostics, surveys, mirrorSessions, payments, emails, jobs, notes, flows] = await Promise.all([
    db.query<NonNullable<LeadDetail['result']>>(
      `SELECT id, tier, qualification, archetype, total_score::float8 AS total_score, diagnostic_score::float8 AS diagnostic_score,
              survey_score::float8 AS survey_score, mirror_score::float8 AS mirror_score, composite_score::float8 AS composite_score,
              gaming_detected, fallback,
              CASE WHEN jsonb_typeof(result->'scores') = 'object' THEN result->'scores' ELSE '{}' END AS scores,
              CASE WHEN jsonb_typeof(result->'qualificationReasoning') = 'array' THEN result->'qualificationReasoning' ELSE '[]' END AS "qualificationReasoning",
              CASE WHEN jsonb_typeof(result->'rulesFired') = 'array' THEN result->'rulesFired' ELSE '[]' END AS "rulesFired",
              grading_version, result->>'narrative' AS narrative, created_at
       FROM assessment_results WHERE lead_id = $1 ORDER BY created_at DESC, id LIMIT 1`,
      [leadId],
    ),
    db.query<LeadDetail['results'][number]>(
      `SELECT id, tier, total_score::float8 AS total_score, grading_version, application_id IS NOT NULL AS regraded, created_at
       FROM assessment_results WHERE lead_id = $1 ORDER BY created_at DESC, id LIMIT 50`,
      [leadId],
    ),
    db.query<{ id: string; bank_version: string; started_at: Date; answers: StoredDiagnosticAnswer[] }>(
      `SELECT d.id, d.bank_version, d.started_at,
              (SELECT json_agg(json_build_object('item_id', a.item_id, 'type', a.type, 'value', a.value, 'confidence', a.confidence,
                                                 'response_ms', a.response_ms, 'timed_out', a.timed_out) ORDER BY a.id)
               FROM diagnostic_answers a WHERE a.diagnostic_id = d.id) AS answers
       FROM diagnostics d
       WHERE (d.lead_id = $1 OR d.flow_id IN ${flowIds}) AND EXISTS (SELECT 1 FROM diagnostic_answers a WHERE a.diagnostic_id = d.id)
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
      // a deposit's session as its flow records it: the path's booking and the provider's latest word
      `SELECT p.id, p.purpose, p.amount_cents, p.currency, p.status, p.test_mode, p.payment_intent_id, p.refunded_at, p.created_at,
              CASE WHEN p.purpose = 'deposit' AND p.status IN ('succeeded', 'refunded') THEN json_build_object(
                'booking', coalesce(f.snapshot->'context'->'completedPath'->>'booking', 'none'),
                'startsAt', CASE WHEN e.type = 'SESSION_BOOKED' THEN e.payload->>'startsAt' END,
                'provider', e.payload->>'provider',
                'canceled', coalesce(e.type = 'SESSION_CANCELED', false),
                'canceledBy', CASE WHEN e.type = 'SESSION_CANCELED' THEN e.payload->>'canceledBy' END,
                'reminded', coalesce((f.snapshot->'context'->'followUps'->>'remindedToBook')::boolean, false)
              ) END AS session
       FROM payment_tracking p
       LEFT JOIN flows f ON f.id = p.flow_id
       LEFT JOIN LATERAL (
         SELECT type, payload FROM flow_events
         WHERE flow_id = p.flow_id AND type IN ('SESSION_BOOKED', 'SESSION_CANCELED') ORDER BY seq DESC LIMIT 1
       ) e ON true
       WHERE p.lead_id = $1 ORDER BY p.created_at DESC`,
      [leadId],
    ),
    db.query<LeadDetail['emails'][number]>(
      'SELECT id, kind, to_address, subject, text_body, attachments, status, error, created_at, sent_at FROM email_outbox WHERE lead_id = $1 ORDER BY created_at DESC',
      [leadId],
    ),
    db.query<LeadDetail['jobs'][number]>(
      `SELECT id, queue, name, status, attempts, max_attempts, last_error, created_at, finished_at
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
    await client.query('DELETE FROM lead_tokens WHERE lead_id IS NULL AND lower(email) = lower($1)', [email]);
    await client.query(`DELETE FROM jobs WHERE lead_id IS NULL AND flow_id IS NULL AND payload->>'leadId' = $1`, [leadId]);
    await client.query('DELETE FROM leads WHERE lead_id = $1', [leadId]);
    return true;
  });
}
