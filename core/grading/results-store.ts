import type pg from 'pg';
import type { GradingRequest } from '#machines/assessment-flow/assessment-flow.effects.js';
import type { GradeInput, GradeResult } from '#machines/grading/index.js';
import type { DiagnosticAnswers } from '#machines/protocol/common.js';
import { answerRows } from '../leads/answer-rows.js';
import { refreshLeadFacts } from '../leads/lead-facts.js';

/*
 * The one writer of a grading's results (core/db/table-owners.ts): diagnostics (with their answers,
 * one row each: decision 0042), diagnostic_results, survey_responses and assessment_results. The grading worker, the standalone
 * diagnostic's start and the re-grade store through the functions here, each in its caller's
 * transaction. Where results are graded: "Grading paths" in docs/architecture.md.
 */

/** An assessment graded by its flow's grading job: whose it is, what was answered, and the job that keys its rows. */
type GradedAssessment = Pick<GradingRequest, 'leadId' | 'assessment' | 'survey' | 'diagnosticId'> & {
  flowId: string;
  jobId: string | null;
};

/**
 * Writes the diagnostic, its answers, both results and the survey response in one statement;
 * returns the assessment_results id. A rushed attempt (a retake prompt) is stored as an attempt
 * without a tier: it is not an outcome. The lead's tier and scores are read from its latest
 * outcome (core/leads/lead-facts.ts), so nothing on the lead is written here. A standalone
 * diagnostic's answers and result are already stored: it is given to the lead instead, so its
 * report and the lead's page show this assessment. One named statement: it is the grading job's
 * whole store, parsed and planned once per connection.
 */
export async function storeAssessmentResults(
  db: pg.ClientBase,
  input: GradedAssessment,
  graded: GradeInput,
  result: GradeResult,
): Promise<string> {
  const answers = answerRows(input.assessment);
  const stored = await db.query<{ id: string }>({
    name: 'store-assessment-results',
    text: `WITH new_diagnostic AS (
       INSERT INTO diagnostics (lead_id, flow_id, bank_version, status, completed_at, answers)
       SELECT $1, $2, $3, 'completed', now(), $4 WHERE $21::uuid IS NULL RETURNING id
     ), standalone AS (
       UPDATE diagnostics SET lead_id = $1 WHERE id = $21 RETURNING id
     ), standalone_result AS (
       UPDATE diagnostic_results SET lead_id = $1 WHERE diagnostic_id = $21
     ), diagnostic AS (
       SELECT id FROM new_diagnostic UNION ALL SELECT id FROM standalone
     ), diagnostic_result AS (
       INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version)
       SELECT new_diagnostic.id, $1, $5, $6, $7, $3, $8 FROM new_diagnostic
     ), survey AS (
       INSERT INTO survey_responses (lead_id, flow_id, job_id, answers, survey_score) VALUES ($1, $2, $9, $10, $11)
     )
     INSERT INTO assessment_results (lead_id, flow_id, diagnostic_id, job_id, tier, qualification, archetype, total_score,
       diagnostic_score, survey_score, mirror_score, composite_score, gaming_detected, fallback, result, bank_version, grading_version, grade_input)
     SELECT $1, $2, diagnostic.id, $9, CASE WHEN $14 THEN NULL ELSE $12 END, CASE WHEN $14 THEN NULL ELSE $15 END, $6, $13, $16, $11,
            $17, $18, $14, $19, $20, $3, $8, $22 FROM diagnostic
     RETURNING id`,
    values: [
      input.leadId,
      input.flowId,
      result.bankVersion,
      JSON.stringify(answers),
      result.scores,
      result.archetype,
      result.narrative,
      result.gradingVersion,
      input.jobId,
      input.survey,
      result.surveyScore,
      result.tier,
      result.totalScore,
      result.gamingDetected,
      result.qualification,
      result.diagnosticScore,
      result.mirrorScore,
      result.compositeScore,
      result.fallback,
      result,
      input.diagnosticId,
      graded,
    ],
  });
  // a standalone diagnostic that no longer exists leaves nothing to attach the result to
  if (!stored.rows[0]) throw new Error(`No standalone diagnostic ${input.diagnosticId} for flow ${input.flowId}`);
  await refreshLeadFacts(db, [input.leadId]); // its tier, scores and "done" (decision 0055)
  return stored.rows[0].id;
}

/** A standalone diagnostic starts with its flow: its row, in the flow's transaction, answered and graded later. */
export async function startStandaloneDiagnostic(
  client: pg.ClientBase,
  diagnostic: { leadId: string | null; flowId: string; bankVersion: string; visitorId: string },
): Promise<string> {
  const row = await client.query<{ id: string }>(
    'INSERT INTO diagnostics (lead_id, flow_id, bank_version, visitor_id) VALUES ($1, $2, $3, $4) RETURNING id',
    [diagnostic.leadId, diagnostic.flowId, diagnostic.bankVersion, diagnostic.visitorId],
  );
  return row.rows[0]!.id;
}

/**
 * A standalone diagnostic graded: its answers and result stored and the row marked completed, in
 * one statement; the caller holds the row locked, and a completed row is the job's key.
 */
export async function storeDiagnosticResult(
  client: pg.ClientBase,
  diagnostic: { id: string; leadId: string | null },
  answers: DiagnosticAnswers,
  result: GradeResult,
): Promise<void> {
  await client.query(
    `WITH result AS (
       INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version)
       VALUES ($1, $2, $4, $5, $6, $7, $8)
     )
     UPDATE diagnostics SET status = 'completed', completed_at = now(), answers = $3 WHERE id = $1`,
    [
      diagnostic.id,
      diagnostic.leadId,
      JSON.stringify(answerRows(answers)),
      result.scores,
      result.archetype,
      result.narrative,
      result.bankVersion,
      result.gradingVersion,
    ],
  );
  await refreshLeadFacts(client, [diagnostic.leadId]);
}

/** A lead's latest result graded again under a newer rule set (core/grading/regrade.ts). */
export interface RegradedResult {
  leadId: string;
  flowId: string | null;
  diagnosticId: string | null;
  input: GradeInput;
  result: GradeResult;
}

/**
 * Writes each re-graded result as a new row beside the old ones (never over them) tied to the
 * application; being the latest outcome, it is what lead_facts reads the lead's tier and scores from.
 */
export async function storeRegradedResults(client: pg.ClientBase, applicationId: number, regraded: RegradedResult[]): Promise<void> {
  if (regraded.length === 0) return;
  const rows = regraded.map(({ leadId, flowId, diagnosticId, input, result }) => ({
    lead_id: leadId,
    flow_id: flowId,
    diagnostic_id: diagnosticId,
    tier: result.tier,
    archetype: result.archetype,
    total_score: result.totalScore,
    diagnostic_score: result.diagnosticScore,
    survey_score: result.surveyScore,
    mirror_score: result.mirrorScore,
    composite_score: result.compositeScore,
    result,
    bank_version: result.bankVersion,
    grading_version: result.gradingVersion,
    grade_input: input,
  }));
  await client.query(
    `WITH r AS (
       SELECT * FROM jsonb_to_recordset($1) AS r(lead_id uuid, flow_id uuid, diagnostic_id uuid, tier text, archetype text,
         total_score numeric, diagnostic_score numeric, survey_score numeric, mirror_score numeric, composite_score numeric,
         result jsonb, bank_version text, grading_version text, grade_input jsonb)
     )
     INSERT INTO assessment_results (lead_id, flow_id, diagnostic_id, tier, qualification, archetype, total_score, diagnostic_score,
       survey_score, mirror_score, composite_score, result, bank_version, grading_version, grade_input, application_id)
     SELECT lead_id, flow_id, diagnostic_id, tier, tier, archetype, total_score, diagnostic_score, survey_score, mirror_score,
       composite_score, result, bank_version, grading_version, grade_input, $2 FROM r`,
    [JSON.stringify(rows), applicationId],
  );
  await refreshLeadFacts(
    client,
    regraded.map((row) => row.leadId),
  );
}
