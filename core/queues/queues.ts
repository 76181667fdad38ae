import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from './names.js';

/** One BullMQ Queue per queue name, sharing a connection and key prefix. */
export type Queues = Record<QueueName, Queue>;

/** Opens every queue; retries back off exponentially from 1 s, failed jobs are kept for ops. */
export function openQueues(connection: ConnectionOptions, prefix: string): Queues {
  return Object.fromEntries(
    QUEUE_NAMES.map((name) => [
      name,
      new Queue(name, {
        connection,
        prefix,
        defaultJobOptions: {
          attempts: 5,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: { age: 24 * 3600, count: 1000 },
          removeOnFail: { age: 30 * 24 * 3600 },
        },
      }),
    ]),
  ) as Queues;
}

/** Closes every queue's connections. */
export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
