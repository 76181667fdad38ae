import { z } from 'zod';
import { cannedResult, gradeAssessment, type GradeInput } from '#machines/grading/index.js';
import { diagnosticAnswersSchema, mirrorTurnSchema, surveyAnswersSchema, type DiagnosticAnswers } from '#machines/protocol/common.js';
import type { DiagnosticResult } from '#machines/protocol/diagnostic.js';
import type { FlowTx } from '#core/flows/engine.js';
import { rulesInForce } from '#core/grading/rule-sets.js';
import { storeAssessmentResults, storeDiagnosticResult } from '#core/grading/results-store.js';
import { holdGrading } from '#core/leads/lead-attempts.js';
import { inJobTransaction, type QueueProcessor } from './processor.js';

/**
 * A grading job is always a flow's: its requestGrading effect wrote the job. An assessment flow's
 * carries the whole assessment; a standalone diagnostic's (kind 'diagnostic') only the diagnostic's
 * answers. This worker is not the only place a result is graded: every one (the re-grade, the dry
 * run, the browser's fallback ...) is listed under "Grading paths" in docs/architecture.md, which
 * scripts/grading-paths.test.ts keeps true.
 */
const assessmentRequest = z.object({
  /** Null for an unconfirmed attempt's grading (decision 0044): its result is kept on the attempt. */
  leadId: z.uuid().nullable(),
  assessment: diagnosticAnswersSchema,
  survey: surveyAnswersSchema,
  mirrorChat: z.array(mirrorTurnSchema),
  /** The standalone diagnostic the answers came from (already stored and graded on its own), if any. */
  diagnosticId: z.uuid().nullable().default(null),
});
const diagnosticRequest = z.object({ kind: z.literal('diagnostic'), answers: diagnosticAnswersSchema });
const payloadSchema = z.object({
  flowId: z.uuid(),
  request: z.union([diagnosticRequest, assessmentRequest]),
  attemptId: z.uuid().optional(),
});

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
  await storeDiagnosticResult(tx.client, { id: diagnostic.id, leadId: diagnostic.lead_id }, answers, result);
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
    const { flowId, request, attemptId } = payloadSchema.parse(job.data.payload);
    const jobId = job.data.jobRowId;
    return inJobTransaction(context, async (tx) => {
      if ('kind' in request) return gradeDiagnostic(tx, flowId, request.answers);
      // the rules in force, read under the shared rules lock so an apply cannot slip in between
      // this read and the commit (core/grading/rule-sets.ts)
      const ruleSet = await rulesInForce(tx.client);
      const answers = { answers: request.assessment, survey: request.survey, mirrorChat: request.mirrorChat };
      const result = gradeAssessment(answers, { ruleSet });
      // what was graded, kept with the result so a later rule set can re-grade it on the same bank
      const graded: GradeInput = { ...answers, bankVersion: result.bankVersion };
      if (attemptId || !request.leadId) {
        // an unconfirmed attempt: the visitor sees their result, the lead's stays as it was
        if (!attemptId) throw new Error(`A grading job of flow ${flowId} names neither a lead nor an attempt`);
        await holdGrading(tx.client, attemptId, { request, graded, result });
        await tx.applyIfAllowed(flowId, { type: 'GRADED', result }, 'worker');
        return { attemptId, tier: result.tier, gamingDetected: result.gamingDetected };
      }
      const resultId = await storeAssessmentResults(tx.client, { ...request, leadId: request.leadId, flowId, jobId }, graded, result);
      await tx.applyIfAllowed(flowId, { type: 'GRADED', result }, 'worker');
      return { resultId, tier: result.tier, gamingDetected: result.gamingDetected };
    });
  },
  claimsOnCompletion: () => true,
  // When grading cannot be had, the visitor still gets the canned result. A
  // standalone diagnostic has none to show (its page has gone on to the survey): it stays
  // grading, and an admin's retry of the job grades it later.
  onExhausted: async (job, { engine }) => {
    const { flowId, request } = payloadSchema.parse(job.data.payload);
    if ('kind' in request) return;
    await engine.applyIfAllowed(flowId, { type: 'GRADED', result: { ...cannedResult(), fallback: true } }, 'worker');
  },
};
