/*
 * Integration and browser tests talk to a real PostgreSQL and a real Redis. Each run gets its own
 * database (created here, migrated, dropped at the end) and its own BullMQ key prefix, so runs
 * never collide. Services: TEST_DATABASE_URL / TEST_REDIS_URL when set, else the local ones on
 * their standard ports, else an embedded PostgreSQL and a spawned redis-server under .data/.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '#core/db/migrate.js';
import { postgresAnswers, startEmbeddedPostgres } from '#scripts/services/postgres.js';
import { redisAnswers, spawnRedis } from '#scripts/services/redis.js';
import { Redis } from 'ioredis';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's migrated database. */
    databaseUrl: string;
    /** A database on the same server from which tests may create and drop scratch databases. */
    maintenanceUrl: string;
    redisUrl: string;
    /** This run's BullMQ key prefix. */
    queuePrefix: string;
    /** A migrated database nobody connects to, copied by isolatedConfig() for files that run workers. */
    templateDatabase: string;
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export default async function setup(project: TestProject) {
  const stops: Array<() => Promise<void>> = [];

  let maintenanceUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!process.env.TEST_DATABASE_URL && !(await postgresAnswers(maintenanceUrl))) {
    const embedded = await startEmbeddedPostgres('.data/test-postgres');
    stops.push(embedded.stop);
    maintenanceUrl = embedded.url;
  }

  let redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!process.env.TEST_REDIS_URL && !(await redisAnswers('127.0.0.1', 6379))) {
    const spawned = await spawnRedis('.data/test-redis');
    stops.push(spawned.stop);
    redisUrl = spawned.url;
  }

  const runId = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const database = `hf_test_${project.name}_${runId}`;
  const template = `${database}_tpl`;
  const admin = new pg.Client(maintenanceUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await migrate(withDatabase(maintenanceUrl, template));
  await admin.query(`CREATE DATABASE "${database}" TEMPLATE "${template}"`);
  await admin.end();
  const databaseUrl = withDatabase(maintenanceUrl, database);

  const queuePrefix = `hf-test-${project.name}-${runId}`;
  project.provide('databaseUrl', databaseUrl);
  project.provide('maintenanceUrl', maintenanceUrl);
  project.provide('redisUrl', redisUrl);
  project.provide('queuePrefix', queuePrefix);
  project.provide('templateDatabase', template);

  return async () => {
    const client = new pg.Client(maintenanceUrl);
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    // files that ran workers made their own copies; a crashed file may have left one behind
    const leftovers = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${database}_f%`]);
    for (const { datname } of leftovers.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.end();
    const redis = new Redis(redisUrl);
    for await (const keys of redis.scanStream({ match: `${queuePrefix}*`, count: 500 })) {
      if ((keys as string[]).length) await redis.del(...(keys as string[]));
    }
    await redis.quit();
    await Promise.allSettled(stops.map((stop) => stop()));
  };
}
