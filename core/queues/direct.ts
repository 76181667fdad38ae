import type pg from 'pg';
import { handJobsBackToRelay, type NewJob } from './outbox.js';
import type { Queues } from './queues.js';
import type { RelayedJobData } from './relay.js';

/** A job row as written, with its id. */
export type QueuedJob = NewJob & { id: string };

/**
 * The fast path past the relay: the process that committed job rows (written already enqueued,
 * insertJob's `direct`) adds them to BullMQ itself, with jobId = row id as the relay would. If
 * Redis refuses, the rows not added go back to pending for the relay's next pass, and the error is
 * rethrown; a row stuck enqueued meanwhile (this process died, or PostgreSQL refused the hand-back
 * too) is one whose job the relay's sweep finds missing from BullMQ and adds. If both add one,
 * BullMQ keeps a single job.
 */
export function directEnqueuer(pool: pg.Pool, queues: Queues) {
  return async (jobs: QueuedJob[]): Promise<void> => {
    let added = 0;
    try {
      for (const job of jobs) {
        const data: RelayedJobData = { jobRowId: job.id, payload: job.payload };
        await queues[job.queue].add(job.name, data, {
          jobId: job.id,
          attempts: job.maxAttempts ?? 5,
          ...(job.delayMs ? { delay: job.delayMs } : {}),
        });
        added += 1;
      }
    } catch (error) {
      await handJobsBackToRelay(
        pool,
        jobs.slice(added).map((job) => job.id),
      ).catch(() => {});
      throw error;
    }
  };
}
