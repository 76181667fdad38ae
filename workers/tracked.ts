import { UnrecoverableError, type Job } from 'bullmq';
import type { FlowTx } from '#core/flows/engine.js';
import {
  claimJob,
  completeJob,
  failJobForGood,
  jobSettledElsewhere,
  requeueAfterFailedAttempt,
  type AttemptTally,
} from '#core/queues/outbox.js';
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
  // BullMQ failing a job by itself runs no attempt: the row keeps the higher count. It fails a job
  // that stalled too often as a worker fetches it, and counts that fetch as a start: not an attempt
  tally: AttemptTally = { counted: true, started: job.attemptsStarted - (job.deferredFailure ? 1 : 0) },
): Promise<void> {
  // once: whichever notices first (the last attempt, BullMQ's failed event, the relay's sweep) tells the flow
  const moved = await failJobForGood(context.pool, job.data.jobRowId, error.message, tally);
  if (!moved || !processor.onExhausted) return;
  await processor
    .onExhausted(job, context, error)
    .catch((failure: unknown) => context.log.error({ err: failure, jobId: job.id }, 'could not report a failed job to its flow'));
}

/** The job's row was completed by another delivery of it while this one ran: this one's work is rolled back. */
class CompletedElsewhere extends Error {}

/**
 * Wraps a processor so the outbox row follows its job: completed with its result, enqueued again
 * between retries, failed when retries are spent, each with the attempt counted. A job whose row is
 * already completed (a duplicate delivery) does nothing, which keeps processing once-only even if a
 * relay adds a job twice. A processor that does its work in the job's own transaction
 * (context.jobTransaction) has the row completed in that transaction, so its work and its
 * bookkeeping commit together.
 *
 * Most jobs are first claimed (the row goes active, in a commit of its own). A job whose processor
 * `claimsOnCompletion` is not (decision 0060): its row stays enqueued while it runs (BullMQ's lock
 * is what says it runs), its completion counts the attempt, and a duplicate delivery finds out at
 * that completion and rolls its work back.
 */
export function tracked(processor: QueueProcessor, context: ProcessorContext) {
  return async (job: Job<RelayedJobData>): Promise<unknown> => {
    const id = job.data.jobRowId;
    const claimed = !processor.claimsOnCompletion?.(job);
    if (claimed && !(await claimJob(context.pool, id))) return { skipped: 'the outbox row is completed or gone' };
    // read when the attempt ends: BullMQ counted this attempt's start before the processor ran
    const tally = (): AttemptTally => ({ counted: claimed, started: job.attemptsStarted });
    let completedInTransaction = false;
    const jobTransaction = <T>(work: (tx: FlowTx) => Promise<T>): Promise<T> =>
      context.engine.transaction(async (tx) => {
        const result = await work(tx);
        if (!(await completeJob(tx.client, id, result, tally()))) throw new CompletedElsewhere();
        completedInTransaction = true;
        return result;
      });
    try {
      const result = await processor.process(job, { ...context, jobTransaction });
      if (!completedInTransaction) {
        const completed = await completeJob(context.pool, id, result, tally());
        if (!completed && !claimed) return { skipped: 'another delivery of the job completed it' };
      }
      return result;
    } catch (error) {
      if (error instanceof CompletedElsewhere) return { skipped: 'another delivery of the job completed it' };
      // an unclaimed duplicate fails on what the first delivery stored (a unique key, a flow moved on)
      if (!claimed && (await jobSettledElsewhere(context.pool, id))) return { skipped: 'another delivery of the job completed it' };
      const failure = error instanceof Error ? error : new Error(String(error));
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) await finalizeFailed(processor, context, job, failure, tally());
      else await requeueAfterFailedAttempt(context.pool, id, failure.message, tally());
      throw error;
    }
  };
}
