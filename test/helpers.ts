import { randomBytes } from 'node:crypto';
import { inject, onTestFinished } from 'vitest';
import pg from 'pg';
import { loadConfig, type Config } from '#core/config/index.js';
import { migrate } from '#core/db/migrate.js';

/** A Config for this test run's database, Redis and queue prefix, with any overrides. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: inject('databaseUrl'),
      REDIS_URL: inject('redisUrl'),
      QUEUE_PREFIX: inject('queuePrefix'),
      // each app counts its own requests: tests share one loopback address
      RATE_LIMIT_PREFIX: `${inject('queuePrefix')}-rl${randomBytes(4).toString('hex')}`,
      ...overrides,
    },
    { isTTY: false },
  );
  return { ...config, QUEUE_PREFIX: config.QUEUE_PREFIX ?? inject('queuePrefix') };
}

/** A queue and rate-limit prefix of its own under this run's (so the run's teardown removes its keys). */
export function privatePrefix(): string {
  return `${inject('queuePrefix')}-p${randomBytes(4).toString('hex')}`;
}

/**
 * Environment for a child process (server, worker, supervisor) pointed at this run's services,
 * with a queue prefix of its own: a process claims its prefix for its database, and tests give
 * processes scratch databases of their own.
 */
export function testEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: privatePrefix(),
    ...overrides,
  };
}

/** A new, empty database dropped when the test ends; migrated unless asked not to be. */
export async function scratchDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const maintenanceUrl = inject('maintenanceUrl');
  const name = `hf_scratch_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(maintenanceUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  onTestFinished(async () => {
    const client = new pg.Client(maintenanceUrl);
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  });
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;
  if (options.migrated !== false) await migrate(url.toString());
  return url.toString();
}

/**
 * A database and queue prefix of the test file's own, for files that run outbox relays and
 * workers: a relay claims every pending job row in its database, so files sharing one would take
 * each other's jobs. Call in beforeAll; call drop() in afterAll.
 */
export async function isolatedConfig(overrides: Record<string, string> = {}): Promise<{ config: Config; drop: () => Promise<void> }> {
  const maintenanceUrl = inject('maintenanceUrl');
  const name = `${new URL(inject('databaseUrl')).pathname.slice(1)}_f${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client(maintenanceUrl);
  await admin.connect();
  try {
    // copying a template is refused while another copy of it is being made: wait a moment and retry
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDatabase')}"`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
        // eslint-disable-next-line no-restricted-syntax -- PostgreSQL announces no end to another copy of the template: a retry after a random pause
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;
  const config = testConfig({
    DATABASE_URL: url.toString(),
    QUEUE_PREFIX: `${inject('queuePrefix')}-f${randomBytes(4).toString('hex')}`,
    ...overrides,
  });
  const drop = async () => {
    const client = new pg.Client(maintenanceUrl);
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
  return { config, drop };
}
