import { once } from 'node:events';
import { Worker } from 'bullmq';
import { loadConfigOrExit, requireUrl } from '../server/config/index.js';
import { createPool } from '../server/db/pool.js';
import { createLogger } from '../server/logger.js';
import { createRedis } from '../server/redis.js';
import { onShutdown } from '../server/shutdown.js';
import { startHeartbeat } from './heartbeat.js';
import { FlowEngine } from '../server/flows/engine.js';
import { redisPublisher } from '../server/flows/push.js';
import { directEnqueuer } from '../server/queues/direct.js';
import { monitorPublisher } from '../server/slack/monitor-hub.js';
import { processors } from './processors/index.js';
import { tracked } from './tracked.js';
import { closeQueues, openQueues } from '../server/queues/queues.js';
import { OutboxRelay } from '../server/queues/relay.js';

const config = loadConfigOrExit();
const log = createLogger(config, 'worker');
const pool = createPool(requireUrl(config, 'DATABASE_URL'), config.PG_POOL_MAX);
// One connection shared by all workers for ordinary commands; BullMQ duplicates it for blocking reads.
const connection = createRedis(requireUrl(config, 'REDIS_URL'), 'worker');

const queues = openQueues(connection, config.QUEUE_PREFIX);
// a relay that cannot reach Redis keeps rows pending and says so; the connection's own errors would repeat it
for (const queue of Object.values(queues)) queue.on('error', (error) => log.debug({ err: error, queue: queue.name }, 'queue connection error'));
const engine = new FlowEngine(pool, redisPublisher(connection, config.QUEUE_PREFIX), log, directEnqueuer(pool, queues));
const publishMonitor = monitorPublisher(connection, config.QUEUE_PREFIX);

const workers = Object.entries(processors).map(
  ([queue, processor]) =>
    new Worker(queue, tracked(processor, { pool, log, config, engine, publishMonitor }), {
      connection,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.WORKER_CONCURRENCY,
      // a job whose worker died is handed to another once its lock lapses
      lockDuration: config.JOB_LOCK_MS,
      stalledInterval: config.JOB_LOCK_MS,
    }),
);
for (const worker of workers) {
  worker.on('error', (error) => log.error({ err: error, queue: worker.name }, 'worker error'));
  worker.on('failed', (job, error) => log.warn({ queue: worker.name, jobId: job?.id, err: error }, 'job failed'));
}
// Ready means connected: wait for Redis (retrying) before saying so, even with no queue to serve.
if (connection.status !== 'ready') await once(connection, 'ready');
await Promise.all(workers.map((worker) => worker.waitUntilReady()));
// Every worker process also relays the outbox; row locks keep several relays from doubling a job.
const relay = new OutboxRelay(pool, queues, log);
await relay.start();
const stopHeartbeat = startHeartbeat(connection);
log.info({ queues: workers.map((worker) => worker.name), concurrency: config.WORKER_CONCURRENCY }, 'worker ready');
process.send?.({ type: 'ready' });

onShutdown(log, async () => {
  stopHeartbeat();
  await relay.stop();
  // close() lets in-flight jobs finish; anything still running when the process dies is handed
  // back by BullMQ's stalled-job check, so nothing is lost
  await Promise.all(workers.map((worker) => worker.close()));
  await closeQueues(queues);
  await Promise.allSettled([pool.end(), connection.quit()]);
});
