import { UnrecoverableError, type Job } from 'bullmq';
import type { RelayedJobData } from '../server/queues/relay.js';
import type { ProcessorContext, QueueProcessor } from './processors/index.js';

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
      await context.pool.query(
        "UPDATE jobs SET status = 'completed', result = $2, last_error = NULL, finished_at = now() WHERE id = $1",
        [id, JSON.stringify(result ?? null)],
      );
      return result;
    } catch (error) {
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await context.pool.query(
        `UPDATE jobs SET status = $2, last_error = $3, finished_at = CASE WHEN $2 = 'failed' THEN now() END WHERE id = $1`,
        [id, final ? 'failed' : 'enqueued', error instanceof Error ? error.message : String(error)],
      );
      if (final && processor.onExhausted) {
        await processor.onExhausted(job, context, error instanceof Error ? error : new Error(String(error))).catch((failure: unknown) =>
          context.log.error({ err: failure, jobId: job.id }, 'could not report a failed job to its flow'),
        );
      }
      throw error;
    }
  };
}
