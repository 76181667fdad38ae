import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '#test/routes.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';

let app: FastifyInstance;
let pool: pg.Pool;
let adminHeaders: Record<string, string>;

let harness: TestApp;

beforeAll(async () => {
  // a Slack secret, so the Slack endpoint is fuzzed through its signature check rather than its 503
  harness = await buildTestApp({ ownDatabase: true, env: { SLACK_SIGNING_SECRET: 'fuzz-slack-secret' } });
  ({ app, pool } = harness);
  ({ headers: adminHeaders } = await signedInAdmin(pool));
});

afterAll(() => harness?.close());

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
