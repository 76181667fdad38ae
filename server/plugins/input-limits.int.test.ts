import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registeredRoutes } from '#test/routes.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { frameText } from '../sockets/frames.js';
import { BODY_SIZE_MESSAGE, INPUT_LIMITS, NESTING_MESSAGE, nestedPast } from './input-limits.js';

let harness: TestApp;
let app: FastifyInstance;
let base: string;
let adminHeaders: Record<string, string>;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true, logLevel: 'info' });
  ({ app, url: base } = harness);
  ({ headers: adminHeaders } = await signedInAdmin(harness.pool));
});

afterAll(() => harness?.close());

const address = () => `10.7.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`;
/** Signed webhooks read raw bytes and check their signature first (their nesting after it). */
const RAW_BODY_ROUTES = new Set(['POST /api/stripe/webhook', 'POST /api/slack/events', 'POST /api/integrations/scheduling/webhook']);
const writeRoutes = () => registeredRoutes(app).filter((route) => /^(POST|PUT|PATCH) /.test(route) && !RAW_BODY_ROUTES.has(route));

/** The log lines written while `run` ran, at warn and above. */
async function loggedDuring(run: () => Promise<void>) {
  const from = harness.logs.length;
  await run();
  // a request's last line is written as its answer leaves, after the client may have read it:
  // wait until every request begun has logged its end
  const requests = (msg: string) => new Set(harness.logs.slice(from).flatMap((line) => (line.msg === msg ? [line.reqId] : [])));
  await until(
    () => {
      const ended = requests('request completed');
      return [...requests('incoming request')].every((id) => ended.has(id));
    },
    5_000,
    'a request never logged its end',
  );
  return harness.logs.slice(from).filter((line) => (line.level as number) >= 40);
}

function inject(route: string, payload: string, headers: Record<string, string> = {}): Promise<import('fastify').LightMyRequestResponse> {
  const [method, path] = route.split(' ') as [InjectOptions['method'], string];
  return app.inject({
    method,
    url: path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x'),
    headers: { ...adminHeaders, 'content-type': 'application/json', ...headers },
    remoteAddress: address(),
    payload,
  });
}

describe('nestedPast, the scan that runs before JSON is parsed', () => {
  it('counts open arrays and objects, skipping strings and their escapes, and names the top-level field', () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(nestedPast(deep(32))).toBeNull();
    expect(nestedPast(deep(33))).toEqual({ field: '0' });
    expect(nestedPast('[]', 0)).toEqual({ field: '' });
    expect(nestedPast(`{"a":1,"b\\"[{":${deep(40)}}`)).toEqual({ field: 'b"[{' });
    expect(nestedPast(`[1,"]]]",{"x":${deep(40)}}]`)).toEqual({ field: '2' });
    expect(nestedPast(`{"s":"${'['.repeat(1000)}"}`)).toBeNull();
    expect(nestedPast(`{"s":"\\\\","t":${deep(40)}}`)).toEqual({ field: 't' });
    // not JSON at all: the parser after it says so
    expect(nestedPast('not json [')).toBeNull();
  });

  it('JSON.parse and secure-json-parse (fastify’s own parser, proto checks on) take 1,000,000 levels without overflowing', () => {
    const parse = app.getDefaultJsonParser('error', 'error');
    for (const text of [
      `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`,
      `${'{"a":'.repeat(100_000)}{"__proto__":1}${'}'.repeat(100_000)}`,
      `${'{"constructor":{"prototype":{}},"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
    ]) {
      let outcome: unknown;
      void parse({} as never, text, (error: Error | null) => (outcome = error ? error.constructor.name : 'parsed'));
      // a poisoned body is refused as bad JSON (a 400), never as a RangeError from a blown stack
      expect(['parsed', 'FastifyError']).toContain(outcome);
    }
  });
});

describe('limits on every route, each a 4xx naming the limit, logged once at warn without a stack', () => {
  it('a body nested 100,000 deep: 400 naming the field on every write route', async () => {
    const levels = 100_000;
    const body = `{"event":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(body.length).toBeLessThan(INPUT_LIMITS.bodyBytes);
    const routes = writeRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    const logged = await loggedDuring(async () => {
      for (const route of routes) {
        const response = await inject(route, body);
        // bull-board's routes answer through its own error handler, in its own shape; the contact
        // form's no-script route with its page (and the failure notice)
        const named = route.includes('/admin/queues/')
          ? response.json().message === `Invalid event: ${NESTING_MESSAGE}`
          : route === 'POST /contact'
            ? response.body.includes('data-contact-outcome="refused"')
            : response.json().fields?.event === NESTING_MESSAGE;
        if (response.statusCode !== 400 || !named) wrong.push(`${route} -> ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    });
    expect(wrong).toEqual([]);
    expect(logged.map((line) => [line.level, line.limit, line.field, line.msg])).toEqual(
      routes.map(() => [40, 'nesting', 'event', 'input refused by a limit']),
    );
    expect(logged.some((line) => 'err' in line || 'stack' in line)).toBe(false);
  });

  it('the routes that read raw bytes take a body just under the limit with a 4xx, not a blown stack (found by the fuzz pass)', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(INPUT_LIMITS.bodyBytes - 100) });
    const logged = await loggedDuring(async () => {
      for (const route of RAW_BODY_ROUTES) {
        const response = await inject(route, body);
        // refused by the signature check (or, for Slack in this app, 503: no signing secret is set)
        expect([400, 401, 503], route).toContain(response.statusCode);
      }
    });
    expect(logged.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it(`a body over ${INPUT_LIMITS.bodyBytes / 1024} KB: 413 naming the limit, on every write route, JSON or not`, async () => {
    const big = JSON.stringify({ message: 'x'.repeat(INPUT_LIMITS.bodyBytes) });
    const routes = writeRoutes();
    const wrong: string[] = [];
    const logged = await loggedDuring(async () => {
      for (const route of routes) {
        const response = await inject(
          route,
          big,
          route.endsWith('/unsubscribe') ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
        );
        if (response.statusCode !== 413 || response.json().fields?.body !== BODY_SIZE_MESSAGE)
          wrong.push(`${route} -> ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    });
    expect(wrong).toEqual([]);
    expect(logged.map((line) => [line.level, line.limit])).toEqual(routes.map(() => [40, 'bodyBytes']));
    expect(logged.some((line) => 'err' in line)).toBe(false);
  });

  it("a chunked body (no declared length) past the limit: the same 413, from fastify's bodyLimit through the error handler", async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const logged = await loggedDuring(async () => {
      const response = await fetch(`${base}/api/visits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: 'Payload Too Large', fields: { body: BODY_SIZE_MESSAGE } });
    });
    expect(logged.map((line) => [line.level, line.limit])).toEqual([[40, 'bodyBytes']]);
  });

  it(`an address over ${INPUT_LIMITS.urlLength} characters: 414; a query of more than ${INPUT_LIMITS.queryParameters} parameters: 400`, async () => {
    const logged = await loggedDuring(async () => {
      const long = await app.inject({ method: 'GET', url: `/api/config?q=${'a'.repeat(INPUT_LIMITS.urlLength)}` });
      expect(long.statusCode).toBe(414);
      expect(long.json()).toMatchObject({
        error: 'URI Too Long',
        fields: { url: `must not be longer than ${INPUT_LIMITS.urlLength} characters` },
      });
      const page = await app.inject({ method: 'GET', url: `/about?q=${'a'.repeat(INPUT_LIMITS.urlLength)}` });
      expect(page.statusCode).toBe(414);
      const many = Array.from({ length: INPUT_LIMITS.queryParameters + 1 }, (_, i) => `p${i}=1`).join('&');
      const crowded = await app.inject({ method: 'GET', url: `/api/config?${many}` });
      expect(crowded.statusCode).toBe(400);
      expect(crowded.json().fields).toEqual({ query: `must not have more than ${INPUT_LIMITS.queryParameters} parameters` });
      const fine = await app.inject({ method: 'GET', url: `/api/config?${many.replace(/&p64=1$/, '')}` });
      expect(fine.statusCode).toBe(200);
    });
    expect(logged.map((line) => [line.level, line.limit])).toEqual([
      [40, 'urlLength'],
      [40, 'urlLength'],
      [40, 'queryParameters'],
    ]);
  });

  it(`a form of more than ${INPUT_LIMITS.formFields} fields: 400 naming the limit`, async () => {
    const form = Array.from({ length: INPUT_LIMITS.formFields + 1 }, (_, i) => `f${i}=1`).join('&');
    const logged = await loggedDuring(async () => {
      const response = await inject('POST /api/email/unsubscribe', form, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ body: `must not have more than ${INPUT_LIMITS.formFields} fields` });
    });
    expect(logged.map((line) => [line.level, line.limit])).toEqual([[40, 'formFields']]);
  });

  it('a socket frame 30,000 deep gets an error frame naming the limit; one over 64 KB closes the socket with 1009; both logged at warn', async () => {
    const from = harness.logs.length;
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`);
    const frames: Array<{ type: string; error?: string }> = [];
    socket.on('message', (raw) => frames.push(JSON.parse(frameText(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    // as deep as fits in one frame's 64 KB
    socket.send(`{"type":"subscribe","flowId":${'['.repeat(30_000)}${']'.repeat(30_000)}}`);
    await expect.poll(() => frames.find((frame) => frame.type === 'error')).toEqual({ type: 'error', error: `flowId: ${NESTING_MESSAGE}` });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    socket.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(INPUT_LIMITS.frameBytes) }));
    expect(await closed).toBe(1009);
    await expect
      .poll(() =>
        harness.logs
          .slice(from)
          .filter((line) => (line.level as number) >= 40)
          .map((line) => [line.level, line.limit]),
      )
      .toEqual([
        [40, 'nesting'],
        [40, 'frameBytes'],
      ]);
  });
});
