import { UnrecoverableError, type Job } from 'bullmq';
import type pg from 'pg';
import type { FlowTx } from '#core/flows/engine.js';
import type { RelayedJobData } from '#core/queues/relay.js';
import type { ProcessorContext, QueueProcessor } from './processors/index.js';

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
  const moved = await context.pool.query(
    "UPDATE jobs SET status = 'failed', last_error = $2, finished_at = now() WHERE id = $1 AND status NOT IN ('completed', 'failed') RETURNING id",
    [job.data.jobRowId, error.message],
  );
  if (!moved.rowCount || !processor.onExhausted) return;
  await processor
    .onExhausted(job, context, error)
    .catch((failure: unknown) => context.log.error({ err: failure, jobId: job.id }, 'could not report a failed job to its flow'));
}

/** The job's row was completed by another delivery of it while this one ran: this one's work is rolled back. */
class CompletedElsewhere extends Error {}

/** Marks the row completed with `result`, unless it already is; true when this call did. */
async function complete(db: pg.ClientBase | pg.Pool, id: string, result: unknown): Promise<boolean> {
  const done = await db.query({
    name: 'complete-job',
    text: "UPDATE jobs SET status = 'completed', result = $2, last_error = NULL, finished_at = now() WHERE id = $1 AND status <> 'completed' RETURNING id",
    values: [id, JSON.stringify(result ?? null)],
  });
  return Boolean(done.rowCount);
}

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
    const claimed = await context.pool.query({
      name: 'claim-job',
      text: "UPDATE jobs SET status = 'active', attempts = attempts + 1 WHERE id = $1 AND status <> 'completed' RETURNING id",
      values: [id],
    });
    if (!claimed.rowCount) return { skipped: 'the outbox row is completed or gone' };
    let completedInTransaction = false;
    const jobTransaction = <T>(work: (tx: FlowTx) => Promise<T>): Promise<T> =>
      context.engine.transaction(async (tx) => {
        const result = await work(tx);
        if (!(await complete(tx.client, id, result))) throw new CompletedElsewhere();
        completedInTransaction = true;
        return result;
      });
    try {
      const result = await processor.process(job, { ...context, jobTransaction });
      if (!completedInTransaction) await complete(context.pool, id, result);
      return result;
    } catch (error) {
      if (error instanceof CompletedElsewhere) return { skipped: 'another delivery of the job completed it' };
      const failure = error instanceof Error ? error : new Error(String(error));
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) await finalizeFailed(processor, context, job, failure);
      else await context.pool.query("UPDATE jobs SET status = 'enqueued', last_error = $2 WHERE id = $1", [id, failure.message]);
      throw error;
    }
  };
}
