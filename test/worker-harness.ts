import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import type pg from 'pg';
import { pino } from 'pino';
import { inject, onTestFinished } from 'vitest';
import type { Config } from '../server/config/index.js';
import { FlowEngine } from '../server/flows/engine.js';
import { redisPublisher } from '../server/flows/push.js';
import { directEnqueuer } from '../server/queues/direct.js';
import { monitorPublisher } from '../server/slack/monitor-hub.js';
import type { QueueName } from '../server/queues/names.js';
import { closeQueues, openQueues } from '../server/queues/queues.js';
import { OutboxRelay } from '../server/queues/relay.js';
import { createRedis } from '../server/redis.js';
import { processors, type QueueProcessor } from '../workers/processors/index.js';
import { tracked } from '../workers/tracked.js';

/**
 * The worker side run in the test's own process: an outbox relay and BullMQ workers for `queues`
 * (the real processors unless overridden), on the config's Redis and queue prefix. Stopped when
 * the test ends.
 */
export async function startWorkers(
  pool: pg.Pool,
  config: Config,
  queueNames: QueueName[],
  overrides: Partial<Record<QueueName, QueueProcessor>> = {},
  relayOptions: { sweepMs?: number; lostAfterMs?: number } = {},
) {
  const connection = createRedis(config.REDIS_URL!, 'worker');
  const log = pino({ level: 'silent' });
  const queues = openQueues(connection, config.QUEUE_PREFIX);
  const engine = new FlowEngine(pool, redisPublisher(connection, config.QUEUE_PREFIX), log, directEnqueuer(pool, queues));
  const publishMonitor = monitorPublisher(connection, config.QUEUE_PREFIX);
  const relay = new OutboxRelay(pool, queues, log, { sweepMs: 500, ...relayOptions });
  const workers = queueNames.map((name) => {
    const processor = overrides[name] ?? processors[name];
    if (!processor) throw new Error(`no processor for the ${name} queue`);
    return new Worker(name, tracked(processor, { pool, log, config, engine, publishMonitor }), {
      connection,
      prefix: config.QUEUE_PREFIX,
      concurrency: 4,
    });
  });
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  await relay.start();
  onTestFinished(async () => {
    await relay.stop();
    await Promise.all(workers.map((worker) => worker.close()));
    await closeQueues(queues);
    await connection.quit();
  });
  return { engine, queues };
}

/** A queue prefix of its own under this run's (so the run's teardown removes its keys). */
export function privatePrefix(): string {
  return `${inject('queuePrefix')}-p${randomBytes(4).toString('hex')}`;
}

/** Polls `check` until it holds (or throws after `timeoutMs`). */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
