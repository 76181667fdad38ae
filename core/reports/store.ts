import type pg from 'pg';
import { z } from 'zod';
import { DisplayDimension } from '#machines/content/index.js';
import { HttpError } from '../http-error.js';
import type { ReportInput, ReportLead } from './report-input.js';
import { buildReportPdf, reportOf } from './report-pdf.js';

interface ReportRow {
  archetype: string;
  narrative: string;
  scores: unknown;
  completed_at: Date;
  lead_name: string | null;
  result_id: string | null;
  result: unknown;
  stored_pdf: Buffer | null;
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
 * Who is asking for a report: a visitor by their cookie (null reaches nothing), the holder of a
 * checked signed link, or the coach (a signed-in admin, checked by the admin area's guard).
 */
export type ReportReader = { visitorId: string | null } | { signedLink: true } | { coach: true };

/**
 * A diagnostic (`g`) is its visitor's: the one who started it on the standalone page, or whose
 * assessment flow it was graded for. $2 is the visitor asking (null reaches nothing); $3 is true
 * for a signed link (core/reports/report-link.ts), whose signature stands for the owner, and for the coach.
 */
const READABLE = '($3 OR g.visitor_id = $2 OR EXISTS (SELECT 1 FROM flows f WHERE f.id = g.flow_id AND f.visitor_id = $2))';

const readerParams = (reader: ReportReader) => ('visitorId' in reader ? [reader.visitorId, false] : [null, true]);

/** A diagnostic's report: what it shows, and what it was drawn from, with the PDF kept for exactly that, if any. */
interface LoadedReport {
  report: ReportInput;
  lead: ReportLead;
  date: Date;
  /** The assessment result it is drawn from (null: the diagnostic alone). */
  resultId: string | null;
  storedPdf: Buffer | null;
}

/**
 * A report's data by diagnostic id (diagnostics.id: what diagnostic-start returns and results-get
 * shows as id), 404 until that diagnostic has a result, and for anyone but its visitor or a signed
 * link's holder. When the diagnostic went on to a full assessment, that assessment's stored result
 * (insights, tier) fills the report; a retake prompt is not a result, so gaming-detected rows are
 * passed over. Otherwise the diagnostic alone shows. The stored PDF comes with it when it was drawn
 * from the same result and name.
 */
async function loadReport(db: Pick<pg.Pool, 'query'>, diagnosticId: string, reader: ReportReader): Promise<LoadedReport> {
  const found = await db.query<ReportRow>(
    `SELECT d.archetype, d.narrative, d.scores, d.completed_at, l.name AS lead_name, a.id AS result_id, a.result, p.pdf AS stored_pdf
     FROM diagnostic_results d
     JOIN diagnostics g ON g.id = d.diagnostic_id AND ${READABLE}
     LEFT JOIN leads l ON l.lead_id = d.lead_id
     LEFT JOIN LATERAL (
       SELECT id, result FROM assessment_results
       WHERE diagnostic_id = d.diagnostic_id AND NOT gaming_detected
       ORDER BY created_at DESC LIMIT 1
     ) a ON true
     LEFT JOIN report_pdfs p ON p.diagnostic_id = d.diagnostic_id
       AND p.result_id IS NOT DISTINCT FROM a.id AND p.lead_name IS NOT DISTINCT FROM l.name
     WHERE d.diagnostic_id = $1`,
    [diagnosticId, ...readerParams(reader)],
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
  return {
    report,
    lead: { name: row.lead_name },
    date: row.completed_at,
    resultId: row.result_id,
    storedPdf: row.stored_pdf,
  };
}

/** A report's PDF and the date it is of (for its file name). */
export interface ReportPdf {
  pdf: Buffer;
  date: Date;
}

/**
 * The diagnostic's PDF report (404 as loadReport): the one stored, else drawn now and stored, so a
 * report is drawn once however often it is opened, and neither grading nor an email draws one
 * (decision 0040). A re-grade or a new name draws it again, replacing the old. Two first opens at
 * once may both draw; one is stored and both serve it.
 */
export async function reportPdf(db: Pick<pg.Pool, 'query'>, diagnosticId: string, reader: ReportReader): Promise<ReportPdf> {
  const loaded = await loadReport(db, diagnosticId, reader);
  if (loaded.storedPdf) return { pdf: loaded.storedPdf, date: loaded.date };
  const drawn = await buildReportPdf(loaded.report, loaded.lead, { date: loaded.date });
  const kept = await db.query<{ pdf: Buffer }>(
    `INSERT INTO report_pdfs (diagnostic_id, result_id, lead_name, pdf) VALUES ($1, $2, $3, $4)
     ON CONFLICT (diagnostic_id) DO UPDATE SET result_id = excluded.result_id, lead_name = excluded.lead_name, pdf = excluded.pdf, created_at = now()
       WHERE report_pdfs.result_id IS DISTINCT FROM excluded.result_id OR report_pdfs.lead_name IS DISTINCT FROM excluded.lead_name
     RETURNING pdf`,
    [diagnosticId, loaded.resultId, loaded.lead.name, drawn],
  );
  if (kept.rows[0]) return { pdf: kept.rows[0].pdf, date: loaded.date };
  // another open stored the same report first: serve that one
  return { pdf: (await loadReport(db, diagnosticId, reader)).storedPdf ?? drawn, date: loaded.date };
}

/** The stable URL path of a diagnostic's report, or null before it has a result (or when it is not this visitor's). */
export async function reportPathFor(db: pg.Pool, diagnosticId: string, visitorId: string | null): Promise<string | null> {
  const found = await db.query(
    `SELECT 1 FROM diagnostic_results d JOIN diagnostics g ON g.id = d.diagnostic_id AND ${READABLE} WHERE d.diagnostic_id = $1`,
    [diagnosticId, visitorId, false],
  );
  return found.rowCount ? `/api/reports/${diagnosticId}.pdf` : null;
}

/**
 * The diagnostic whose report shows a result a flow was graded with (the one its results or
 * homework email is about), or null when the result was not stored (the canned fallback) or its
 * lead was deleted. The stored row holds the very result the flow's GRADED carried.
 */
export async function diagnosticOfGradedResult(db: Pick<pg.Pool, 'query'>, flowId: string, result: unknown): Promise<string | null> {
  const found = await db.query<{ diagnostic_id: string }>({
    name: 'diagnostic-of-graded-result',
    text: `SELECT diagnostic_id FROM assessment_results
           WHERE flow_id = $1 AND result = $2::jsonb AND diagnostic_id IS NOT NULL AND NOT gaming_detected
           ORDER BY created_at DESC LIMIT 1`,
    values: [flowId, JSON.stringify(result)],
  });
  return found.rows[0]?.diagnostic_id ?? null;
}

/**
 * The report an email's attachment was (a lead's report, attached before decision 0040; the file
 * itself was never stored): the diagnostic of the email's lead completed last before the email was
 * written, else its latest. Null when the email has no such attachment or its lead has no report.
 */
export async function diagnosticOfEmailAttachment(db: Pick<pg.Pool, 'query'>, emailId: string, index: number): Promise<string | null> {
  const found = await db.query<{ diagnostic_id: string }>(
    `SELECT d.diagnostic_id
     FROM email_outbox e
     JOIN diagnostics g ON g.lead_id = e.lead_id OR g.flow_id IN (SELECT id FROM flows WHERE lead_id = e.lead_id)
     JOIN diagnostic_results d ON d.diagnostic_id = g.id
     WHERE e.id = $1 AND e.attachments->($2::int)->>'contentType' = 'application/pdf'
     ORDER BY (d.completed_at <= e.created_at) DESC, d.completed_at DESC
     LIMIT 1`,
    [emailId, index],
  );
  return found.rows[0]?.diagnostic_id ?? null;
}

/** The diagnostic whose report shows a flow's latest stored result (the modal's Download Report), or null before there is one. */
export async function diagnosticOfFlow(db: Pick<pg.Pool, 'query'>, flowId: string): Promise<string | null> {
  const found = await db.query<{ diagnostic_id: string }>(
    `SELECT diagnostic_id FROM assessment_results
     WHERE flow_id = $1 AND diagnostic_id IS NOT NULL AND NOT gaming_detected
     ORDER BY created_at DESC LIMIT 1`,
    [flowId],
  );
  return found.rows[0]?.diagnostic_id ?? null;
}
