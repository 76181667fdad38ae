import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedConfig } from '#test/helpers.js';
import { registeredRoutes } from '#test/routes.js';
import { buildApp } from './app.js';
import { createAdmin } from './auth/admin-users.js';
import { createSession, csrfTokenFor, SESSION_COOKIE } from './auth/sessions.js';
import { createPool } from '#core/db/pool.js';
import { createRedis } from '#core/redis.js';

let app: FastifyInstance;
let pool: pg.Pool;
let redis: ReturnType<typeof createRedis>;
let drop: () => Promise<void>;
let adminHeaders: Record<string, string>;

beforeAll(async () => {
  // a Slack secret, so the Slack endpoint is fuzzed through its signature check rather than its 503
  const own = await isolatedConfig({ SLACK_SIGNING_SECRET: 'fuzz-slack-secret' });
  drop = own.drop;
  pool = createPool(own.config.DATABASE_URL!, 6);
  redis = createRedis(own.config.REDIS_URL!, 'producer');
  app = await buildApp({ config: own.config, pool, redis, logger: false });
  await app.ready();
  const email = `fuzz-${randomBytes(4).toString('hex')}@example.com`;
  await createAdmin(pool, email, 'a long enough password');
  const admin = await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  const { token } = await createSession(pool, admin.rows[0]!.id);
  adminHeaders = { cookie: `${SESSION_COOKIE}=${token}`, 'x-csrf-token': csrfTokenFor(token) };
});

afterAll(async () => {
  await app.close();
  await pool.end();
  redis.disconnect();
  await drop();
});

/** Routes that are not JSON request/response endpoints: the socket upgrades and the SPA files. */
const SOCKETS = new Set(['GET /api/ws', 'GET /api/functions/slack-monitor']);
const SKIPPED = (route: string) => SOCKETS.has(route) || !route.split(' ')[1]!.startsWith('/api/');

const paramValue = fc.oneof(
  fc.uuid().map(String),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('0', '-1', '..%2F..', '%00', 'null', 'x'.repeat(300)),
);
const queryValue = fc.dictionary(
  fc.constantFrom('wait', 'paymentIntentId', 'sessionId', 'page', 'q', 'flow'),
  fc.string({ maxLength: 30 }),
);

function requestFor(route: string, body: unknown, param: string, query: Record<string, string>, asAdmin: boolean): InjectOptions {
  const [method, path] = route.split(' ') as [InjectOptions['method'], string];
  const url = path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(param)).replace(/\*$/, 'x');
  const search = new URLSearchParams(query).toString();
  return {
    method,
    url: search ? `${url}?${search}` : url,
    headers: { 'content-type': 'application/json', ...(asAdmin ? adminHeaders : {}) },
    // every request from its own address, so rate limits never hide a response
    remoteAddress: `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`,
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: JSON.stringify(body) }),
  };
}

describe('random JSON to every route', () => {
  it('never answers 5xx, signed in as an admin or not', async () => {
    const routes = registeredRoutes(app).filter((route) => !SKIPPED(route));
    expect(routes.length).toBeGreaterThan(25);
    const failures: string[] = [];
    for (const route of routes) {
      await fc
        .assert(
          fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), paramValue, queryValue, fc.boolean(), async (body, param, query, asAdmin) => {
            const response = await app.inject(requestFor(route, body, param, query, asAdmin));
            if (response.statusCode >= 500)
              failures.push(`${route} -> ${response.statusCode} ${response.body.slice(0, 200)} for ${JSON.stringify(body).slice(0, 200)}`);
            return response.statusCode < 500;
          }),
          { numRuns: 40, seed: 20261121 + routes.indexOf(route) },
        )
        .catch(() => {});
    }
    expect(failures).toEqual([]);
  });

  it('answers structurally valid but wrong bodies with 400 naming the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/flows', payload: { machine: 'assessmentFlow', mode: 42 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('mode');
    const event = await app.inject({ method: 'POST', url: `/api/flows/${randomUUID()}/events`, payload: { event: { type: 7 } } });
    expect(event.statusCode).toBe(400);
  });
});
