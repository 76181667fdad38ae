import type pg from 'pg';
import { z } from 'zod';
import { DisplayDimension } from '#machines/content/index.js';
import { HttpError } from '../http-error.js';
import { reportOf, type ReportInput, type ReportLead } from './report-pdf.js';

interface ReportRow {
  archetype: string;
  narrative: string;
  scores: unknown;
  completed_at: Date;
  lead_name: string | null;
  result: unknown;
}

/** Stored jsonb read defensively: only the six display dimensions with numeric scores are drawn. */
const scoresSchema = z
  .record(z.string(), z.unknown())
  .transform((raw) => {
    const scores: ReportInput['scores'] = {};
    for (const dimension of DisplayDimension.options) {
      const value = raw[dimension];
      if (typeof value === 'number' && Number.isFinite(value)) scores[dimension] = value;
    }
    return scores;
  })
  .catch({});

const storedResultSchema = z.object({
  archetype: z.string().min(1),
  narrative: z.string(),
  scores: scoresSchema,
  keyInsights: z.array(z.string()).catch([]),
  qualification: z.string(),
  fallback: z.boolean().catch(false),
  compositeScore: z.number().optional().catch(undefined),
});

/**
 * A diagnostic (`g`) is its visitor's: the one who started it on the standalone page, or whose
 * assessment flow it was graded for. $2 is the visitor asking (null reaches nothing).
 */
const OWNED_BY_VISITOR = '(g.visitor_id = $2 OR EXISTS (SELECT 1 FROM flows f WHERE f.id = g.flow_id AND f.visitor_id = $2))';

/**
 * A report's data by diagnostic id (diagnostics.id: what diagnostic-start returns and results-get
 * shows as id), 404 until that diagnostic has a result, and for any visitor but its own. When the diagnostic went on to a full
 * assessment, that assessment's stored result (insights, tier) fills the report; a retake prompt
 * is not a result, so gaming-detected rows are passed over. Otherwise the diagnostic alone shows.
 */
export async function loadReport(
  db: pg.Pool,
  diagnosticId: string,
  visitorId: string | null,
): Promise<{ report: ReportInput; lead: ReportLead; date: Date }> {
  const found = await db.query<ReportRow>(
    `SELECT d.archetype, d.narrative, d.scores, d.completed_at, l.name AS lead_name, a.result
     FROM diagnostic_results d
     JOIN diagnostics g ON g.id = d.diagnostic_id AND ${OWNED_BY_VISITOR}
     LEFT JOIN leads l ON l.lead_id = d.lead_id
     LEFT JOIN LATERAL (
       SELECT result FROM assessment_results
       WHERE diagnostic_id = d.diagnostic_id AND NOT gaming_detected
       ORDER BY created_at DESC LIMIT 1
     ) a ON true
     WHERE d.diagnostic_id = $1`,
    [diagnosticId, visitorId],
  );
  const row = found.rows[0];
  if (!row) throw new HttpError(404, `No report for diagnostic ${diagnosticId}`);
  const stored = storedResultSchema.safeParse(row.result);
  const report: ReportInput = stored.success
    ? reportOf(stored.data)
    : {
        archetype: row.archetype,
        narrative: row.narrative,
        scores: scoresSchema.parse(row.scores),
        leadershipScore: null,
        keyInsights: [],
        tier: null,
        fallback: false,
      };
  return { report, lead: { name: row.lead_name }, date: row.completed_at };
}

/** The stable URL path of a diagnostic's report, or null before it has a result (or when it is not this visitor's). */
export async function reportPathFor(db: pg.Pool, diagnosticId: string, visitorId: string | null): Promise<string | null> {
  const found = await db.query(
    `SELECT 1 FROM diagnostic_results d JOIN diagnostics g ON g.id = d.diagnostic_id AND ${OWNED_BY_VISITOR} WHERE d.diagnostic_id = $1`,
    [diagnosticId, visitorId],
  );
  return found.rowCount ? `/api/reports/${diagnosticId}.pdf` : null;
}
