import type { FlowMode } from '#machines/protocol/common.js';
import type { FlowEngine } from '../flows/engine.js';
import { bindFlowToLead, bindResumedFlow } from '../flows/flow-store.js';
import { storeAssessmentResults } from '../grading/results-store.js';
import { confirmAttempt } from './lead-attempts.js';
import { markEmailProven } from './lead-service.js';

/**
 * The confirmation link followed (decision 0044): whoever opened it reads the lead's inbox, so in
 * one transaction the address is proven, the attempt's flow is bound to the lead and moved to the
 * opening browser (like a resume link), its held result is stored as the lead's newest, and the
 * emails it asked for are written as jobs, sent now to the confirmed address. Null when the link's
 * attempt is already confirmed or gone.
 */
export async function confirmAddress(
  engine: FlowEngine,
  attemptId: string,
  visitorId: string,
): Promise<{ flowId: string; mode: FlowMode } | null> {
  return engine.transaction(async (tx) => {
    const attempt = await confirmAttempt(tx.client, attemptId);
    if (!attempt) return null;
    await markEmailProven(tx.client, attempt.leadId);
    await bindFlowToLead(tx.client, attempt.flowId, attempt.leadId);
    const mode = await bindResumedFlow(tx.client, attempt.flowId, visitorId);
    // the attempt's row cascades from its flow's, so the flow is there
    if (!mode) throw new Error(`The confirmed attempt's flow ${attempt.flowId} is not an assessment`);
    if (attempt.graded) {
      const { request, graded, result } = attempt.graded;
      const input = { ...request, leadId: attempt.leadId, flowId: attempt.flowId, jobId: null };
      await storeAssessmentResults(tx.client, input, graded, result);
    }
    for (const job of attempt.heldJobs) await tx.insertJob(job);
    return { flowId: attempt.flowId, mode };
  });
}
