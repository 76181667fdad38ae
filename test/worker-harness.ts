import type pg from 'pg';
import { pino } from 'pino';
import { onTestFinished } from 'vitest';
import type { Config } from '#core/config/index.js';
import type { QueueName } from '#core/queues/names.js';
import type { RelayOptions } from '#core/queues/relay.js';
import { createRedis } from '#core/redis.js';
import { buildWorker } from '#workers/build.js';
import type { QueueProcessor } from '#workers/processors/processor.js';

export interface TestWorkerOptions {
  /** The queues served (one BullMQ worker each). */
  queues: QueueName[];
  /** Processors to run instead of the real ones. */
  processors?: Partial<Record<QueueName, QueueProcessor>>;
  /** The outbox relay's options (default: a sweep every 500 ms). */
  relay?: RelayOptions;
}

/**
 * The worker side as workers/main.ts builds it, run in the test's own process on a test app's
 * (or any) pool and config: an outbox relay and BullMQ workers for `queues`. Stopped when the
 * test ends; call it inside a test.
 */
export async function buildTestWorker(on: { pool: pg.Pool; config: Config }, options: TestWorkerOptions) {
  const connection = createRedis(on.config.REDIS_URL!, 'worker');
  const side = buildWorker({
    config: on.config,
    pool: on.pool,
    connection,
    log: pino({ level: 'silent' }),
    queueNames: options.queues,
    overrides: options.processors ?? {},
    relayOptions: { sweepMs: 500, ...options.relay },
    concurrency: 4,
  });
  await side.start();
  onTestFinished(async () => {
    await side.stop();
    await connection.quit();
  });
  return { engine: side.engine, queues: side.queues, relay: side.relay };
}
