import type pg from 'pg';
import type { NewJob } from './outbox.js';
import type { Queues } from './queues.js';
import type { RelayedJobData } from './relay.js';

/** A job row as written, with its id. */
export type QueuedJob = NewJob & { id: string };

/**
 * The fast path past the relay: the process that committed job rows adds them to BullMQ itself,
 * with jobId = row id as the relay would, and marks them enqueued. If Redis refuses, the rows stay
 * pending and the relay's sweep moves them instead; if both add one, BullMQ keeps a single job.
 */
export function directEnqueuer(pool: pg.Pool, queues: Queues) {
  return async (jobs: QueuedJob[]): Promise<void> => {
    for (const job of jobs) {
      const data: RelayedJobData = { jobRowId: job.id, payload: job.payload };
      await queues[job.queue].add(job.name, data, {
        jobId: job.id,
        attempts: job.maxAttempts ?? 5,
        ...(job.delayMs ? { delay: job.delayMs } : {}),
      });
    }
    await pool.query("UPDATE jobs SET status = 'enqueued', enqueued_at = now() WHERE id = ANY($1) AND status = 'pending'", [
      jobs.map((job) => job.id),
    ]);
  };
}
