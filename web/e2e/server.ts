import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '#server/app.js';
import { createPool } from '#core/db/pool.js';
import { createRedis } from '#core/redis.js';
import { testConfig } from '#test/helpers.js';

export interface TestServerOptions {
  /**
   * A BullMQ and rate-limit key prefix of this server's own, so a test that exhausts a rate limit
   * (e.g. the contact form's) does not affect other files. Default: the run's shared prefix.
   */
  privatePrefix?: boolean;
  /** Collect the server's log lines at this level and above into `logs`. */
  logLevel?: 'info' | 'warn' | 'error';
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  /** The server's own connection pool, for checking what a test stored. */
  pool: pg.Pool;
  /** The parsed JSON log lines (only with `logLevel`). */
  logs: Array<Record<string, unknown>>;
  close: () => Promise<void>;
}

/**
 * The built site folder: web/dist, or E2E_WEB_ROOT to test a build made elsewhere (lets two people
 * build and test the web app at once without overwriting each other's web/dist).
 */
export const WEB_ROOT = process.env.E2E_WEB_ROOT ?? fileURLToPath(new URL('../dist', import.meta.url));

/** The real app, listening on a free loopback port, against this run's database and Redis. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const overrides: Record<string, string> = options.privatePrefix
    ? { QUEUE_PREFIX: `${inject('queuePrefix')}-w${randomBytes(4).toString('hex')}` }
    : {};
  const config = testConfig(overrides);
  const pool = createPool(config.DATABASE_URL!, 4);
  const redis = createRedis(config.REDIS_URL!, 'producer');
  const logs: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      callback();
    },
  });
  const logger = options.logLevel ? { level: options.logLevel, stream } : false;
  const app = await buildApp({ config, pool, redis, logger, webRoot: WEB_ROOT });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    pool,
    logs,
    close: async () => {
      await app.close();
      await pool.end();
      redis.disconnect();
    },
  };
}
