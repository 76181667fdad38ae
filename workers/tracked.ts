import { UnrecoverableError, type Job } from 'bullmq';
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

/**
 * Wraps a processor so the outbox row follows its job: active (attempts counted) while it runs,
 * completed with its result, enqueued again between retries, failed when retries are spent. A job
 * whose row is already completed (a duplicate delivery) is skipped, which keeps processing
 * once-only even if a relay adds a job twice.
 */
export function tracked(processor: QueueProcessor, context: ProcessorContext) {
  return async (job: Job<RelayedJobData>): Promise<unknown> => {
    const id = job.data.jobRowId;
    const claimed = await context.pool.query(
      "UPDATE jobs SET status = 'active', attempts = attempts + 1 WHERE id = $1 AND status <> 'completed' RETURNING id",
      [id],
    );
    if (!claimed.rowCount) return { skipped: 'the outbox row is completed or gone' };
    try {
      const result = await processor.process(job, context);
      await context.pool.query("UPDATE jobs SET status = 'completed', result = $2, last_error = NULL, finished_at = now() WHERE id = $1", [
        id,
        JSON.stringify(result ?? null),
      ]);
      return result;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) await finalizeFailed(processor, context, job, failure);
      else await context.pool.query("UPDATE jobs SET status = 'enqueued', last_error = $2 WHERE id = $1", [id, failure.message]);
      throw error;
    }
  };
}
