import type pg from 'pg';
import type { LeadNote } from '#machines/protocol/admin/leads.js';
import type { AdminData, AdminOverview, ContactSubmission } from '#machines/protocol/admin/overview.js';
import type { LeadScopeQuery } from '#machines/protocol/admin/scope.js';
import { CONTACT_COLUMNS } from '#core/contact/submissions.js';
import { leadFactsColumns } from '#core/leads/lead-facts.js';
import { createdIn, leadsIn, leadSummariesIn, mirrorSessionsIn, overviewScope, scopeAnswered, whereAll } from '#core/leads/lead-scope.js';

/** Rows each list of the admin data bundle holds at most, newest first. */
const ADMIN_LIST_LIMIT = 500;

const NOTE_COLUMNS = 'n.id, n.lead_id, n.author_id, u.email AS author_email, n.body, n.created_at';

async function rows<T extends pg.QueryResultRow>(db: pg.Pool, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(sql, params)).rows;
}

/** admin-fetch-data: the five lists of the admin data bundle, newest first, each capped; test leads marked, not left out. */
export async function fetchAdminData(db: pg.Pool): Promise<AdminData> {
  const [leads, diagnosticResults, mirrorSessions, surveyResponses, contactSubmissions] = await Promise.all([
    rows<AdminData['leads'][number]>(db, `SELECT ${leadFactsColumns()} FROM lead_facts(true) f ORDER BY f.created_at DESC LIMIT $1`, [
      ADMIN_LIST_LIMIT,
    ]),
    rows<AdminData['diagnosticResults'][number]>(
      db,
      `SELECT r.id, r.diagnostic_id, r.lead_id, l.email AS lead_email, r.archetype, r.scores, r.narrative, r.completed_at
       FROM diagnostic_results r LEFT JOIN leads l ON l.lead_id = r.lead_id
       ORDER BY r.completed_at DESC LIMIT $1`,
      [ADMIN_LIST_LIMIT],
    ),
    rows<AdminData['mirrorSessions'][number]>(
      db,
      `SELECT m.id, m.lead_id, l.email AS lead_email, m.saved, m.turns, m.completed, m.created_at, m.updated_at
       FROM mirror_sessions m LEFT JOIN leads l ON l.lead_id = m.lead_id
       ORDER BY m.created_at DESC LIMIT $1`,
      [ADMIN_LIST_LIMIT],
    ),
    rows<AdminData['surveyResponses'][number]>(
      db,
      `SELECT s.id, s.lead_id, l.email AS lead_email, s.answers, s.survey_score::float8 AS survey_score, s.created_at
       FROM survey_responses s LEFT JOIN leads l ON l.lead_id = s.lead_id
       ORDER BY s.created_at DESC LIMIT $1`,
      [ADMIN_LIST_LIMIT],
    ),
    rows<ContactSubmission>(db, `SELECT ${CONTACT_COLUMNS} FROM contact_submissions ORDER BY created_at DESC LIMIT $1`, [ADMIN_LIST_LIMIT]),
  ]);
  return { leads, diagnosticResults, mirrorSessions, surveyResponses, contactSubmissions };
}

/**
 * The Overview for a scope: its counters and two short lists. The lead counters are the funnel's
 * first steps (funnel.ts reads the same kept lead_facts, lead_summaries, with the same scope); Mirror sessions and
 * contact messages are counted by when they started or came.
 */
export async function fetchOverview(db: pg.Pool, query: LeadScopeQuery): Promise<AdminOverview> {
  const scope = await overviewScope(db, query);
  const leadParams: unknown[] = [];
  const leads = leadsIn(scope, leadParams);
  const summaryParams: unknown[] = [];
  const summaries = leadSummariesIn(scope, summaryParams);
  const mirrorParams: unknown[] = [];
  const mirrorWhere = mirrorSessionsIn(scope, mirrorParams);
  const contactParams: unknown[] = [];
  const contactWhere = whereAll(createdIn(scope, 'c.created_at', contactParams));
  const [leadCounts, mirror, contact, recentLeads, recentMessages] = await Promise.all([
    rows<{ totalLeads: number; diagnosticsCompleted: number; surveyResponses: number }>(
      db,
      `SELECT count(*)::int AS "totalLeads",
              count(*) FILTER (WHERE s.diagnostic_done OR s.survey_done)::int AS "diagnosticsCompleted",
              count(*) FILTER (WHERE s.survey_done)::int AS "surveyResponses"
       FROM ${summaries.from} ${whereAll(summaries.where)}`,
      summaryParams,
    ),
    rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM mirror_sessions m ${whereAll(mirrorWhere)}`, mirrorParams),
    rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM contact_submissions c ${contactWhere}`, contactParams),
    rows<AdminOverview['recentLeads'][number]>(
      db,
      `SELECT f.lead_id AS id, f.email, f.source, f.created_at FROM ${leads.from} ${whereAll(leads.where)}
       ORDER BY f.created_at DESC LIMIT 5`,
      leadParams,
    ),
    rows<AdminOverview['recentMessages'][number]>(
      db,
      `SELECT id, name, email, company, message, created_at FROM contact_submissions c ${contactWhere} ORDER BY created_at DESC LIMIT 3`,
      contactParams,
    ),
  ]);
  return {
    ...scopeAnswered(query, scope),
    counts: { ...leadCounts[0]!, mirrorSessions: mirror[0]!.n, contactMessages: contact[0]!.n },
    recentLeads,
    recentMessages,
  };
}

async function leadExists(db: pg.Pool, leadId: string): Promise<boolean> {
  return Boolean((await db.query('SELECT 1 FROM leads WHERE lead_id = $1', [leadId])).rowCount);
}

/** A lead's notes, newest first; null when there is no such lead. */
export async function listLeadNotes(db: pg.Pool, leadId: string): Promise<LeadNote[] | null> {
  if (!(await leadExists(db, leadId))) return null;
  return rows<LeadNote>(
    db,
    `SELECT ${NOTE_COLUMNS} FROM lead_notes n LEFT JOIN users u ON u.id = n.author_id
     WHERE n.lead_id = $1 ORDER BY n.created_at DESC, n.id LIMIT $2`,
    [leadId, ADMIN_LIST_LIMIT],
  );
}

/** add-lead-note: null when there is no such lead. */
export async function addLeadNote(db: pg.Pool, leadId: string, authorId: string, body: string): Promise<LeadNote | null> {
  const added = await rows<LeadNote>(
    db,
    `WITH n AS (
       INSERT INTO lead_notes (lead_id, author_id, body)
       SELECT lead_id, $2, $3 FROM leads WHERE lead_id = $1
       RETURNING *
     )
     SELECT ${NOTE_COLUMNS} FROM n LEFT JOIN users u ON u.id = n.author_id`,
    [leadId, authorId, body],
  );
  return added[0] ?? null;
}
