import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Config } from '#core/config/index.js';
import { createPool } from '#core/db/pool.js';
import { createRedis } from '#core/redis.js';
import { buildApp } from '#server/app.js';
import { isolatedConfig, privatePrefix, testConfig } from './helpers.js';

export interface TestAppOptions {
  /** Environment variables for the app's config (on top of this run's database, Redis and prefix). */
  env?: Record<string, string>;
  /** Loopback URLs of the fakes the app talks to instead of Stripe's API, an OpenAI-compatible LLM, SMTP and Brevo's API. */
  fakes?: { stripe?: string; openai?: string; smtp?: string; brevo?: string };
  /**
   * A database and queue prefix of the app's own (isolatedConfig): for files that run workers (a
   * relay claims every pending job of its database) or count whole tables. Dropped by close().
   */
  ownDatabase?: boolean;
  /** A queue and rate-limit prefix of the app's own, so its counters never meet another file's. */
  ownPrefix?: boolean;
  /** This exact config instead of one built from `env` (a variant of another app's). */
  config?: Config;
  /** Another app's pool (and Redis connection): the app runs on them and close() leaves them open. */
  sharing?: { pool?: pg.Pool; redis?: Redis };
  /** Listen on a free loopback port (for real HTTP or websockets); `url` is then its address. */
  listen?: boolean;
  /** false leaves the app unbooted, so the test can register routes of its own first (default: ready). */
  ready?: boolean;
  poolSize?: number;
  /** Collect the app's log lines at this level and above into `logs` (default: no logger). */
  logLevel?: 'info' | 'warn' | 'error';
  /** Folder of a built site to serve (default: web/dist). */
  webRoot?: string;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  pool: pg.Pool;
  redis: Redis;
  /** `http://127.0.0.1:<port>` when listening, else ''. */
  url: string;
  /** The log lines as written, and parsed (only with `logLevel`). */
  logLines: string[];
  logs: Array<Record<string, unknown>>;
  /** Closes the app and releases everything it opened (pool, Redis connection, own database). */
  close: () => Promise<void>;
}

const FAKE_URL_VARIABLES = { stripe: 'STRIPE_API_URL', openai: 'MIRROR_LLM_BASE_URL', smtp: 'SMTP_URL', brevo: 'BREVO_API_URL' } as const;

/** The whole HTTP app as server/main.ts builds it, on this test run's PostgreSQL and Redis. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env: Record<string, string> = { ...(options.ownPrefix ? { QUEUE_PREFIX: privatePrefix() } : {}) };
  for (const [fake, variable] of Object.entries(FAKE_URL_VARIABLES)) {
    const url = options.fakes?.[fake as keyof typeof FAKE_URL_VARIABLES];
    if (url) env[variable] = url;
  }
  Object.assign(env, options.env);

  let config: Config;
  let drop = async () => {};
  if (options.config) config = options.config;
  else if (options.ownDatabase) ({ config, drop } = await isolatedConfig(env));
  else config = testConfig(env);

  const pool = options.sharing?.pool ?? createPool(config.DATABASE_URL!, options.poolSize ?? 6);
  const redis = options.sharing?.redis ?? createRedis(config.REDIS_URL!, 'producer');
  const logLines: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) {
        if (!line.trim()) continue;
        logLines.push(line);
        logs.push(JSON.parse(line));
      }
      callback();
    },
  });
  const app = await buildApp({
    config,
    pool,
    redis,
    logger: options.logLevel ? { level: options.logLevel, stream } : false,
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
  });
  let url = '';
  if (options.listen) url = await app.listen({ host: '127.0.0.1', port: 0 });
  else if (options.ready !== false) await app.ready();

  return {
    app,
    config,
    pool,
    redis,
    url,
    logLines,
    logs,
    close: async () => {
      await app.close();
      if (!options.sharing?.pool) await pool.end();
      if (!options.sharing?.redis) redis.disconnect();
      await drop();
    },
  };
}
