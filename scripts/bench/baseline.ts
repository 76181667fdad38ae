import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { measure, type RunStats } from './stats.js';

/**
 * (a) The raw BullMQ round trip this product's path is compared with: add a job, a worker
 * completes it, the QueueEvents 'completed' event arrives.
 */
export async function bullmqBaseline(
  connection: Redis,
  prefix: string,
  runs: Array<{ count: number; concurrency: number }>,
  workerConcurrency: number,
): Promise<RunStats[]> {
  const queue = new Queue('bench-baseline', { connection, prefix });
  // BullMQ leaves connections it was given open on close(); these two would keep the bench from exiting
  const eventsConnection = connection.duplicate();
  const workerConnection = connection.duplicate();
  const events = new QueueEvents('bench-baseline', { connection: eventsConnection, prefix });
  const worker = new Worker<{ n: number }, { echoed: number }>('bench-baseline', (job) => Promise.resolve({ echoed: job.data.n }), {
    connection: workerConnection,
    prefix,
    concurrency: workerConcurrency,
  });
  await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
  const waiting = new Map<string, () => void>();
  events.on('completed', ({ jobId }) => waiting.get(jobId)?.());
  const results: RunStats[] = [];
  try {
    for (const run of runs) {
      results.push(
        await measure('(a) BullMQ add -> completed event', run.count, run.concurrency, async (n) => {
          const started = performance.now();
          const jobId = `b-${run.concurrency}-${n}`;
          const done = new Promise<void>((resolve) => waiting.set(jobId, resolve));
          await queue.add('echo', { n }, { jobId, removeOnComplete: true });
          await done;
          waiting.delete(jobId);
          return performance.now() - started;
        }),
      );
    }
  } finally {
    await worker.close();
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
    eventsConnection.disconnect();
    workerConnection.disconnect();
  }
  return results;
}
