import type { Redis } from 'ioredis';
import pg from 'pg';
import { migrate } from '#core/db/migrate.js';
import { postgresAnswers, startEmbeddedPostgres } from '../services/postgres.js';
import { resolveRedis } from '../services/redis.js';

/**
 * A benchmark's own services: a fresh, migrated database named `database` on BENCH_DATABASE_URL's
 * server (else the local one, else an embedded cluster), and Redis (REDIS_URL, the local one, or a
 * spawned one). Everything it started or created is undone by the cleanups it pushes.
 */
export async function benchServices(
  database: string,
  cleanups: Array<() => Promise<unknown>>,
): Promise<{ databaseUrl: string; redisUrl: string }> {
  let maintenanceUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!(await postgresAnswers(maintenanceUrl))) {
    const embedded = await startEmbeddedPostgres('.data/bench-postgres');
    cleanups.push(embedded.stop);
    maintenanceUrl = embedded.url;
  }
  const redis = await resolveRedis(process.env.REDIS_URL, '.data/bench-redis');
  if (redis.stop) cleanups.push(redis.stop);

  const admin = new pg.Client(maintenanceUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client(maintenanceUrl);
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await client.end();
  });
  const url = new URL(maintenanceUrl);
  url.pathname = `/${database}`;
  await migrate(url.toString());
  return { databaseUrl: url.toString(), redisUrl: redis.url };
}

/** The environment the product's processes run with in a benchmark, as `npm start` runs them in production. */
export function productEnv(options: { port: number; databaseUrl: string; redisUrl: string; queuePrefix: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: options.queuePrefix,
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password-not-used',
  };
}

/** Deletes every Redis key of a run's queue prefix, so a benchmark leaves the shared Redis as it found it. */
export async function deleteRunKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 })) {
    if ((keys as string[]).length) await redis.del(...(keys as string[]));
  }
}
