import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registeredRoutes } from '#test/routes.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { flowSocketClientFrameSchema } from '#machines/protocol/socket.js';
import { INPUT_LIMITS } from './plugins/input-limits.js';
import { frameText } from './sockets/frames.js';

/*
 * A fuzz pass over every route the app serves (read from its route tree), signed in as an admin
 * and not: random and malformed bodies of every type, huge ones, JSON nested up to 100,000 levels,
 * random query strings and headers, addresses past the limits; and random frames on the flow
 * socket. No answer may be a 5xx and nothing may be logged at error level. FUZZ_REQUESTS sets the
 * number of requests: 3,000 in `npm test` (about 30 s on the 2-core CI machine, 10 ms a request);
 * `FUZZ_REQUESTS=10000 npx vitest run server/fuzz.int.test.ts` is the full pass (about 100 s).
 */

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);

let app: FastifyInstance;
let pool: pg.Pool;
let base: string;
let adminHeaders: Record<string, string>;
let harness: TestApp;

beforeAll(async () => {
  // a Slack secret, so the Slack endpoint is fuzzed through its signature check rather than its 503
  harness = await buildTestApp({
    ownDatabase: true,
    listen: true,
    logLevel: 'warn',
    env: { SLACK_SIGNING_SECRET: 'fuzz-slack-secret' },
  });
  ({ app, pool, url: base } = harness);
  ({ headers: adminHeaders } = await signedInAdmin(pool));
});

afterAll(() => harness?.close());

/** The socket upgrades (fuzzed with frames below), the built site's files, and the admin's own sign-out (it would end the fuzzing session). */
const SOCKETS = new Set(['GET /api/ws', 'GET /api/functions/slack-monitor', 'GET /api/admin/live']);
const skipped = (route: string) =>
  SOCKETS.has(route) ||
  route === 'POST /api/auth/sign-out' ||
  /^GET \/(assets\/|[^/]+\.\w+$)/.test(route.replace('GET /admin/queues/static', 'GET /assets'));

const deepJson = (levels: number, open: '[' | '{"a":') =>
  `{"event":${open.repeat(levels)}1${(open === '[' ? ']' : '}').repeat(levels)}}`.replace(/\[1\]/, '[1]');
/** Bodies made once: building a 200 KB string per request would cost more than the request. */
const BIG = {
  deep100k: `{"event":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  deepObjects: deepJson(20_000, '{"a":'),
  oversized: JSON.stringify({ message: 'x'.repeat(INPUT_LIMITS.bodyBytes + 1) }),
  longUrl: `q=${'a'.repeat(INPUT_LIMITS.urlLength)}`,
  manyParameters: Array.from({ length: INPUT_LIMITS.queryParameters + 5 }, (_, i) => `p${i}=${i}`).join('&'),
  manyFields: Array.from({ length: INPUT_LIMITS.formFields + 5 }, (_, i) => `f${i}=${i}`).join('&'),
};

const FIELD_NAMES = ['name', 'email', 'message', 'company', 'event', 'token', 'type', 'flowId', 'value', 'password', 'answers', 'leadId'];

const body = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ type: 'application/json', text: JSON.stringify(value) })) },
  {
    weight: 4,
    arbitrary: fc
      .dictionary(fc.constantFrom(...FIELD_NAMES), fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 2 })))
      .map((value) => ({ type: 'application/json', text: JSON.stringify(value) })),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ type: 'application/json', text })) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 30, max: 5_000 }).map((levels) => ({ type: 'application/json', text: deepJson(levels, '[') })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'application/json', text: BIG.deep100k }) },
  { weight: 1, arbitrary: fc.constant({ type: 'application/json', text: BIG.deepObjects }) },
  { weight: 1, arbitrary: fc.constant({ type: 'application/json', text: BIG.oversized }) },
  {
    weight: 2,
    arbitrary: fc
      .dictionary(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 60 }))
      .map((value) => ({ type: 'application/x-www-form-urlencoded', text: new URLSearchParams(value).toString() })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'application/x-www-form-urlencoded', text: BIG.manyFields }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', ''),
        fc.string({ maxLength: 100 }),
      )
      .map(([type, text]) => ({ type, text })),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

const paramValue = fc.oneof(
  fc.uuid().map(String),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('0', '-1', '..%2F..', '%00', 'null', 'x'.repeat(300), '%E0%A4%A', '💥'),
);

const query = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .dictionary(
        fc.constantFrom('wait', 'paymentIntentId', 'sessionId', 'page', 'q', 'flow', 'token', 'email', 'limit', 'status'),
        fc.string({ maxLength: 30 }),
      )
      .map((value) => new URLSearchParams(value).toString()),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom(BIG.longUrl, BIG.manyParameters, 'a[b][c][d]=1&a[b]=2', '%%%', 'q=%00') },
);

const headers = fc.record(
  {
    origin: fc.constantFrom('https://elsewhere.example', 'null', 'not a url', 'http://localhost'),
    'sec-fetch-site': fc.constantFrom('same-origin', 'cross-site', 'same-site', 'none', '??'),
    accept: fc.constantFrom('text/html', 'application/json', '*/*', 'image/png', ''),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x;q=abc'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'garbage', '::1, 10.0.0.1'),
    cookie: fc.constantFrom('hf_session=forged', 'hf_visitor=%ZZ', '; ; =', 'hf_visitor=00000000-0000-4000-8000-000000000000'),
    'x-csrf-token': fc.string({ maxLength: 40 }),
    'content-length': fc.constantFrom('0', '-1', '99999999999'),
    'stripe-signature': fc.string({ maxLength: 40 }),
    'x-slack-signature': fc.string({ maxLength: 40 }),
    'x-slack-request-timestamp': fc.constantFrom(String(Math.floor(Date.now() / 1000)), 'x'),
    range: fc.constantFrom('bytes=0-1', 'bytes=-5', 'bytes=x'),
  },
  { requiredKeys: [] },
);

const request = fc.record({
  routeIndex: fc.nat(),
  body,
  param: paramValue,
  query,
  headers,
  asAdmin: fc.boolean(),
});

type FuzzRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

function requestFor(route: string, input: FuzzRequest): InjectOptions {
  const [method, path] = route.split(' ') as [InjectOptions['method'], string];
  const url = path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(input.param)).replace(/\*$/, 'x');
  const { 'content-length': contentLength, ...otherHeaders } = input.headers;
  const withBody = method !== 'GET' && method !== 'HEAD' && input.body !== null;
  const sent: Record<string, string> = { ...otherHeaders, ...(input.asAdmin ? adminHeaders : {}) };
  if (withBody && input.body!.type) sent['content-type'] = input.body!.type;
  // a declared length that disagrees with the body is for bodiless requests only: light-my-request would hang on it
  if (!withBody && contentLength === '0') sent['content-length'] = contentLength;
  return {
    method,
    url: input.query ? `${url}?${input.query}` : url,
    headers: sent,
    // every request from its own address, so rate limits never hide a response
    remoteAddress: `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`,
    ...(withBody ? { payload: input.body!.text } : {}),
  };
}

/** The log lines at error level and above (fatal) since `from`. */
const errorLines = (from: number) => harness.logs.slice(from).filter((line) => (line.level as number) >= 50);

describe('a fuzz pass over every route', () => {
  it(
    `${REQUESTS} requests: never a 5xx, never an error-level log, signed in as an admin or not`,
    async () => {
      const routes = registeredRoutes(app).filter((route) => !skipped(route));
      expect(routes.length).toBeGreaterThan(60);
      expect(routes).toContain('POST /contact');
      const from = harness.logs.length;
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      const inputs = fc.sample(request, { numRuns: REQUESTS, seed: SEED });
      for (const [index, input] of inputs.entries()) {
        // round the routes in turn, so each gets its share whatever the sample
        const route = routes[index % routes.length]!;
        const response = await app.inject(requestFor(route, input));
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode >= 500 && failures.length < 20)
          failures.push(`${route} -> ${response.statusCode} ${response.body.slice(0, 200)} for ${(input.body?.text ?? '').slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
      expect(errorLines(from).map((line) => `${String(line.msg)} ${JSON.stringify(line.err ?? '').slice(0, 300)}`)).toEqual([]);
      // the pass reached past the front door: bodies read, validated and refused, and some accepted
      expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 400, 401, 404, 413, 414]));
    },
    Math.max(60_000, REQUESTS * 25),
  );

  /** An unsubscribe the socket takes: the one frame it answers with nothing. */
  const needsNoAnswer = (text: string) => {
    try {
      return flowSocketClientFrameSchema.safeParse(JSON.parse(text)).data?.type === 'unsubscribe';
    } catch {
      return false;
    }
  };

  it('200 random frames on the flow socket: error frames or a closed socket for the oversized, never an error-level log', async () => {
    const from = harness.logs.length;
    const frame = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
      fc
        .record({ type: fc.constantFrom('subscribe', 'unsubscribe', 'ping', 'x'), flowId: fc.oneof(fc.uuid().map(String), fc.string()) })
        .map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 100 }),
      fc.integer({ min: 30, max: 30_000 }).map((levels) => `{"type":"subscribe","flowId":${'['.repeat(levels)}${']'.repeat(levels)}}`),
      fc.constant(`{"type":"ping","pad":"${'x'.repeat(INPUT_LIMITS.frameBytes)}"}`),
    );
    let socket: WebSocket | null = null;
    const open = async () => {
      const opened = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`);
      await new Promise((resolve, reject) => opened.once('open', resolve).once('error', reject));
      return opened;
    };
    let closedOversized = 0;
    let silent = 0;
    for (const text of fc.sample(frame, { numRuns: 200, seed: SEED })) {
      if (!socket || socket.readyState !== WebSocket.OPEN) socket = await open();
      const current = socket;
      let onMessage!: (raw: WebSocket.RawData) => void;
      let onClose!: (code: number) => void;
      const answer = new Promise<string>((resolve) => {
        onMessage = (raw) => resolve(`message ${frameText(raw)}`);
        onClose = (code) => resolve(`close ${code}`);
        current.once('message', onMessage).once('close', onClose);
      });
      current.send(text);
      // a frame that needs no answer (an unsubscribe) gets none: a ping sent after it is answered first
      const unanswered = needsNoAnswer(text);
      if (unanswered) current.send(JSON.stringify({ type: 'ping' }));
      const outcome = await answer;
      current.off('message', onMessage).off('close', onClose);
      if (unanswered) {
        expect(outcome, text).toBe(`message ${JSON.stringify({ type: 'pong' })}`);
        silent++;
      } else if (outcome.startsWith('close')) {
        expect(outcome, text.slice(0, 80)).toBe('close 1009');
        closedOversized++;
      }
    }
    socket?.close();
    expect(closedOversized).toBeGreaterThan(0);
    expect(silent).toBeGreaterThan(0);
    expect(errorLines(from)).toEqual([]);
  });

  it('answers structurally valid but wrong bodies with 400 naming the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/flows', payload: { machine: 'assessmentFlow', mode: 42 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('mode');
    const event = await app.inject({ method: 'POST', url: `/api/flows/${randomUUID()}/events`, payload: { event: { type: 7 } } });
    expect(event.statusCode).toBe(400);
  });
});
