import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { rateLimits } from '../plugins/security.js';

let app: FastifyInstance;
let lines: Array<Record<string, unknown>>;
let harness: TestApp;

beforeAll(async () => {
  // a prefix of its own keeps this file's rate-limit counters apart from other files and runs
  harness = await buildTestApp({ ownPrefix: true, logLevel: 'warn' });
  ({ app, logs: lines } = harness);
});

afterAll(() => harness?.close());

let clients = 0;
/** Each test reports from an address of its own, so the rate limit counts only its requests. */
function client() {
  clients += 1;
  const remoteAddress = `198.51.100.${clients}`;
  return (payload: unknown) => app.inject({ method: 'POST', url: '/api/client-log/not-found', payload: payload as object, remoteAddress });
}

describe('POST /api/client-log/not-found', () => {
  it('logs the missing path as a warning and answers 204 with no body', async () => {
    const path = `/no/such/page-${Date.now()}?ref=newsletter`;
    const response = await client()({ path });
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');
    const logged = lines.find((line) => line.missingPath === path);
    expect(logged).toMatchObject({ level: 40, msg: 'page not found', missingPath: path });
  });

  it('refuses a missing, empty, non-string or over-long path with 400 and logs nothing for it', async () => {
    const send = client();
    const before = lines.length;
    for (const payload of [{}, { path: '' }, { path: 42 }, { path: `/${'x'.repeat(2000)}` }]) {
      const response = await send(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect(lines.slice(before).filter((line) => line.msg === 'page not found')).toEqual([]);
  });

  it('accepts a path of exactly 2000 characters', async () => {
    const path = `/${'y'.repeat(1999)}`;
    const response = await client()({ path });
    expect(response.statusCode).toBe(204);
    expect(lines.some((line) => line.missingPath === path)).toBe(true);
  });

  it('is rate-limited per client like the contact form', async () => {
    const send = client();
    const statuses: number[] = [];
    for (let i = 0; i <= rateLimits.contact.max; i++) statuses.push((await send({ path: `/flood-${i}` })).statusCode);
    expect(statuses.slice(0, rateLimits.contact.max).every((status) => status === 204)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // another visitor is not affected
    expect((await client()({ path: '/still-fine' })).statusCode).toBe(204);
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await app.inject('/api/docs/json')).json();
    expect(doc.paths['/api/client-log/not-found']?.post).toBeDefined();
  });
});
