import { once } from 'node:events';
import { loadConfigOrExit, requireUrl } from '#core/config/index.js';
import { createPool } from '#core/db/pool.js';
import { createLogger } from '#core/logger.js';
import { createRedis } from '#core/redis.js';
import { onShutdown } from '#core/shutdown.js';
import { buildWorker } from './build.js';
import { startHeartbeat } from './heartbeat.js';

const config = loadConfigOrExit();
const log = createLogger(config, 'worker');
const pool = createPool(requireUrl(config, 'DATABASE_URL'), config.PG_POOL_MAX);
// One connection shared by all workers for ordinary commands; BullMQ duplicates it for blocking reads.
const connection = createRedis(requireUrl(config, 'REDIS_URL'), 'worker');

const side = buildWorker({ config, pool, connection, log });
// Ready means connected: wait for Redis (retrying) before saying so, even with no queue to serve.
if (connection.status !== 'ready') await once(connection, 'ready');
// Every worker process also relays the outbox; row locks keep several relays from doubling a job.
await side.start();
const stopHeartbeat = startHeartbeat(connection, pool);
log.info({ queues: side.workers.map((worker) => worker.name), concurrency: config.WORKER_CONCURRENCY }, 'worker ready');
process.send?.({ type: 'ready' });

onShutdown(log, async () => {
  stopHeartbeat();
  await side.stop();
  await Promise.allSettled([pool.end(), connection.quit()]);
});
