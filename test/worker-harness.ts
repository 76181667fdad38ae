import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { pino } from 'pino';
import { inject, onTestFinished } from 'vitest';
import type { Config } from '#core/config/index.js';
import type { QueueName } from '#core/queues/names.js';
import type { RelayOptions } from '#core/queues/relay.js';
import { createRedis } from '#core/redis.js';
import { buildWorker } from '#workers/build.js';
import type { QueueProcessor } from '#workers/processors/index.js';

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
  relayOptions: RelayOptions = {},
) {
  const connection = createRedis(config.REDIS_URL!, 'worker');
  const side = buildWorker({
    config,
    pool,
    connection,
    log: pino({ level: 'silent' }),
    queueNames,
    overrides,
    relayOptions: { sweepMs: 500, ...relayOptions },
    concurrency: 4,
  });
  await side.start();
  onTestFinished(async () => {
    await side.stop();
    await connection.quit();
  });
  return { engine: side.engine, queues: side.queues };
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
