import { once } from 'node:events';
import { loadConfigOrExit, requireUrl } from '#core/config/index.js';
import { createPool } from '#core/db/pool.js';
import { MachineFleet } from '#core/flows/fleet.js';
import { createLogger } from '#core/logger.js';
import { queuePrefixOrExit } from '#core/queues/prefix.js';
import { createRedis } from '#core/redis.js';
import { onShutdown } from '#core/shutdown.js';
import { buildWorker } from './build.js';
import { startHeartbeat } from './heartbeat.js';

const envConfig = loadConfigOrExit();
const log = createLogger(envConfig, 'worker');
const pool = createPool(requireUrl(envConfig, 'DATABASE_URL'), envConfig.PG_POOL_MAX);
// One connection shared by all workers for ordinary commands; BullMQ duplicates it for blocking reads.
const connection = createRedis(requireUrl(envConfig, 'REDIS_URL'), 'worker');

// Ready means connected: wait for Redis (retrying) before saying so, even with no queue to serve.
if (connection.status !== 'ready') await once(connection, 'ready');
const config = { ...envConfig, QUEUE_PREFIX: await queuePrefixOrExit(pool, connection, envConfig.QUEUE_PREFIX) };
// joins the fleet before it takes a job: while an older process lives, flows are written at its version (decision 0057)
const fleet = new MachineFleet(connection, config.QUEUE_PREFIX, 'worker', { log });
await fleet.start();
const side = buildWorker({ config, pool, connection, log, writeVersions: fleet.writeVersions });
// Every worker process also relays the outbox; row locks keep several relays from doubling a job.
await side.start();
const stopHeartbeat = startHeartbeat(connection, pool);
log.info({ queues: side.workers.map((worker) => worker.name), concurrency: config.WORKER_CONCURRENCY }, 'worker ready');
process.send?.({ type: 'ready' });

onShutdown(log, async () => {
  stopHeartbeat();
  await side.stop();
  // last: nothing of this process writes a flow any more
  await fleet.stop();
  await Promise.allSettled([pool.end(), connection.quit()]);
});
