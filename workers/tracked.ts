import { UnrecoverableError, type Job } from 'bullmq';
import type { FlowTx } from '#core/flows/engine.js';
import { claimJob, completeJob, failJobForGood, requeueAfterFailedAttempt } from '#core/queues/outbox.js';
import type { RelayedJobData } from '#core/queues/relay.js';
import type { ProcessorContext, QueueProcessor } from './processors/processor.js';

/**
 * Marks a job's row failed for good and tells its processor (onExhausted: e.g. the flow moves to
 * its failure state with the product's words). Used when the processor's last attempt throws, and
 * when BullMQ fails a job by itself (a job whose worker died twice "stalled more than allowable
 * limit") without ever calling the processor.
 */
export async function finalizeFailed(
  processor: QueueProcessor,
  context: ProcessorContext,
  job: Job<RelayedJobData>,
  error: Error,
): Promise<void> {
  // once: whichever notices first (the last attempt, BullMQ's failed event, the relay's sweep) tells the flow
  const moved = await failJobForGood(context.pool, job.data.jobRowId, error.message);
  if (!moved || !processor.onExhausted) return;
  await processor
    .onExhausted(job, context, error)
    .catch((failure: unknown) => context.log.error({ err: failure, jobId: job.id }, 'could not report a failed job to its flow'));
}

/** The job's row was completed by another delivery of it while this one ran: this one's work is rolled back. */
class CompletedElsewhere extends Error {}

/**
 * Wraps a processor so the outbox row follows its job: active (attempts counted) while it runs,
 * completed with its result, enqueued again between retries, failed when retries are spent. A job
 * whose row is already completed (a duplicate delivery) is skipped, which keeps processing
 * once-only even if a relay adds a job twice. A processor that does its work in the job's own
 * transaction (context.jobTransaction) has the row completed in that transaction, so its work and
 * its bookkeeping commit together.
 */
export function tracked(processor: QueueProcessor, context: ProcessorContext) {
  return async (job: Job<RelayedJobData>): Promise<unknown> => {
    const id = job.data.jobRowId;
    if (!(await claimJob(context.pool, id))) return { skipped: 'the outbox row is completed or gone' };
    let completedInTransaction = false;
    const jobTransaction = <T>(work: (tx: FlowTx) => Promise<T>): Promise<T> =>
      context.engine.transaction(async (tx) => {
        const result = await work(tx);
        if (!(await completeJob(tx.client, id, result))) throw new CompletedElsewhere();
        completedInTransaction = true;
        return result;
      });
    try {
      const result = await processor.process(job, { ...context, jobTransaction });
      if (!completedInTransaction) await completeJob(context.pool, id, result);
      return result;
    } catch (error) {
      if (error instanceof CompletedElsewhere) return { skipped: 'another delivery of the job completed it' };
      const failure = error instanceof Error ? error : new Error(String(error));
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) await finalizeFailed(processor, context, job, failure);
      else await requeueAfterFailedAttempt(context.pool, id, failure.message);
      throw error;
    }
  };
}
