import type pg from 'pg';
import { z } from 'zod';
import { cannedResult, gradeAssessment, type GradeInput, type GradeResult } from '#machines/grading/index.js';
import type { GradingRequest } from '#machines/assessment-flow/assessment-flow.effects.js';
import { diagnosticAnswersSchema, mirrorTurnSchema, surveyAnswersSchema, type DiagnosticAnswers } from '#machines/protocol/common.js';
import type { DiagnosticResult } from '#machines/protocol/diagnostic.js';
import type { FlowTx } from '#core/flows/engine.js';
import { lockGradingRules, rulesInForce } from '#core/grading/rule-sets.js';
import { answerRows } from '#core/leads/answer-rows.js';
import { inJobTransaction, type QueueProcessor } from './index.js';

/**
 * Grading is always a flow's: its requestGrading effect wrote the job (there is no other grading
 * path). An assessment flow's carries the whole assessment; a standalone diagnostic's (kind
 * 'diagnostic') only the diagnostic's answers.
 */
const assessmentRequest = z.object({
  leadId: z.uuid(),
  assessment: diagnosticAnswersSchema,
  survey: surveyAnswersSchema,
  mirrorChat: z.array(mirrorTurnSchema),
  /** The standalone diagnostic the answers came from (already stored and graded on its own), if any. */
  diagnosticId: z.uuid().nullable().default(null),
});
const diagnosticRequest = z.object({ kind: z.literal('diagnostic'), answers: diagnosticAnswersSchema });
const payloadSchema = z.object({ flowId: z.uuid(), request: z.union([diagnosticRequest, assessmentRequest]) });

type Stored = Pick<GradingRequest, 'leadId' | 'assessment' | 'survey' | 'diagnosticId'> & { flowId: string; jobId: string };

/**
 * Writes the diagnostic, its answers, both results and the survey response in one statement;
 * returns the assessment_results id. A rushed attempt (a retake prompt) is stored as an attempt
 * without a tier: it is not an outcome. The lead's tier and scores are read from its latest
 * outcome (core/leads/lead-facts.ts), so nothing on the lead is written here. A standalone diagnostic's answers and result are already stored: it is
 * given to the lead instead, so its report and the lead's page show this assessment.
 */
async function storeResults(db: pg.ClientBase, input: Stored, graded: GradeInput, result: GradeResult): Promise<string> {
  const answers = answerRows(input.assessment);
  const stored = await db.query<{ id: string }>({
    name: 'store-assessment-results',
    text: `WITH new_diagnostic AS (
       INSERT INTO diagnostics (lead_id, flow_id, bank_version, status, completed_at)
       SELECT $1, $2, $3, 'completed', now() WHERE $21::uuid IS NULL RETURNING id
     ), standalone AS (
       UPDATE diagnostics SET lead_id = $1 WHERE id = $21 RETURNING id
     ), standalone_result AS (
       UPDATE diagnostic_results SET lead_id = $1 WHERE diagnostic_id = $21
     ), diagnostic AS (
       SELECT id FROM new_diagnostic UNION ALL SELECT id FROM standalone
     ), answers AS (
       INSERT INTO diagnostic_answers (diagnostic_id, item_id, type, value, confidence, response_ms, timed_out)
       SELECT new_diagnostic.id, a.item_id, a.type, a.value, a.confidence, a.response_ms, a.timed_out
       FROM new_diagnostic, jsonb_to_recordset($4) AS a(item_id text, type text, value jsonb, confidence smallint, response_ms integer, timed_out boolean)
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
  return stored.rows[0].id;
}

/**
 * A standalone diagnostic: grades its answers alone (no survey, no Mirror), stores the answers and
 * the result for the diagnostics row started with the flow, marks it completed and applies GRADED
 * to the flow, in one transaction. The row, locked, is the job's key: a retry after a crash finds
 * it completed and does nothing twice.
 */
async function gradeDiagnostic(tx: FlowTx, flowId: string, answers: DiagnosticAnswers) {
  const found = await tx.client.query<{ id: string; lead_id: string | null; status: string }>(
    'SELECT id, lead_id, status FROM diagnostics WHERE flow_id = $1 FOR UPDATE',
    [flowId],
  );
  const diagnostic = found.rows[0];
  if (!diagnostic) throw new Error(`No diagnostics row for the standalone diagnostic flow ${flowId}`);
  if (diagnostic.status === 'completed') return { diagnosticId: diagnostic.id, repeated: true };
  const result = gradeAssessment({ answers, survey: {}, mirrorChat: [] });
  await tx.client.query(
    `WITH answers AS (
       INSERT INTO diagnostic_answers (diagnostic_id, item_id, type, value, confidence, response_ms, timed_out)
       SELECT $1, a.item_id, a.type, a.value, a.confidence, a.response_ms, a.timed_out
       FROM jsonb_to_recordset($3) AS a(item_id text, type text, value jsonb, confidence smallint, response_ms integer, timed_out boolean)
     ), result AS (
       INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version)
       VALUES ($1, $2, $4, $5, $6, $7, $8)
     )
     UPDATE diagnostics SET status = 'completed', completed_at = now() WHERE id = $1`,
    [
      diagnostic.id,
      diagnostic.lead_id,
      JSON.stringify(answerRows(answers)),
      result.scores,
      result.archetype,
      result.narrative,
      result.bankVersion,
      result.gradingVersion,
    ],
  );
  const graded: DiagnosticResult = { archetype: result.archetype, narrative: result.narrative, scores: result.scores };
  await tx.applyIfAllowed(flowId, { type: 'GRADED', result: graded }, 'worker');
  return { diagnosticId: diagnostic.id, archetype: result.archetype };
}

/**
 * lead-assessment: grades the answers with the shared engine under the rules in force, stores the diagnostic, the survey
 * response and the result, and applies GRADED to the flow, all in the job's own transaction, which
 * also completes the job row: a retry after a crash finds the row completed (and is skipped) or
 * nothing stored. A standalone diagnostic's job is graded the same way on its own (gradeDiagnostic).
 */
export const gradingProcessor: QueueProcessor = {
  process: async (job, context) => {
    const { flowId, request } = payloadSchema.parse(job.data.payload);
    const jobId = job.data.jobRowId;
    return inJobTransaction(context, async (tx) => {
      if ('kind' in request) return gradeDiagnostic(tx, flowId, request.answers);
      // the rules in force, read under the shared rules lock so an apply cannot slip in between
      // this read and the commit (core/grading/rule-sets.ts)
      await lockGradingRules(tx.client, 'shared');
      const ruleSet = await rulesInForce(tx.client);
      const answers = { answers: request.assessment, survey: request.survey, mirrorChat: request.mirrorChat };
      const result = gradeAssessment(answers, { ruleSet });
      // what was graded, kept with the result so a later rule set can re-grade it on the same bank
      const graded: GradeInput = { ...answers, bankVersion: result.bankVersion };
      const resultId = await storeResults(tx.client, { ...request, flowId, jobId }, graded, result);
      await tx.applyIfAllowed(flowId, { type: 'GRADED', result }, 'worker');
      return { resultId, tier: result.tier, gamingDetected: result.gamingDetected };
    });
  },
  // When grading cannot be had, the visitor still gets the canned result. A
  // standalone diagnostic has none to show (its page has gone on to the survey): it stays
  // grading, and an admin's retry of the job grades it later.
  onExhausted: async (job, { engine }) => {
    const { flowId, request } = payloadSchema.parse(job.data.payload);
    if ('kind' in request) return;
    await engine.applyIfAllowed(flowId, { type: 'GRADED', result: { ...cannedResult(), fallback: true } }, 'worker');
  },
};
