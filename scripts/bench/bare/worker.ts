/*
 * (c)'s worker process: the product's grading job with nothing on top (one transaction writing the
 * result, then the push on Redis), run as its own bundled Node process like the product's worker.
 */
import { once } from 'node:events';
import { Worker } from 'bullmq';
import { createPool } from '#core/db/pool.js';
import { inTransaction } from '#core/db/transaction.js';
import { createRedis } from '#core/redis.js';
import { onShutdown } from '#core/shutdown.js';
import { BARE_QUEUE, bareSettings, pushChannel, type BarePush } from './names.js';

const settings = bareSettings(process.env);
const pool = createPool(settings.databaseUrl, settings.poolMax);
// one connection for ordinary commands and the publishes; BullMQ duplicates it for blocking reads (as the product's worker)
const connection = createRedis(settings.redisUrl, 'worker');
const channel = pushChannel(settings.prefix);

const worker = new Worker<{ requestId: string; jobId: string }>(
  BARE_QUEUE,
  async (job) => {
    const push: BarePush = { type: 'graded', requestId: job.data.requestId, grade: 'book_call' };
    await inTransaction(pool, (client) =>
      client.query('INSERT INTO bare_results (job_id, result) VALUES ($1, $2)', [job.data.jobId, JSON.stringify({ grade: push.grade })]),
    );
    await connection.publish(channel, JSON.stringify(push));
  },
  { connection, prefix: settings.prefix, concurrency: settings.workerConcurrency },
);
worker.on('error', () => {});

if (connection.status !== 'ready') await once(connection, 'ready');
await worker.waitUntilReady();
process.send?.({ type: 'ready' });

// as the product's processes stop: on a signal or when the bench that started it goes away
// nothing to log: the bench reports
onShutdown({ info: () => {}, error: () => {} }, async () => {
  await worker.close();
  await Promise.allSettled([pool.end(), connection.quit()]);
});
