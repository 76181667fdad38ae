import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registeredRoutes } from '#test/routes.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { rateLimits } from './security.js';
import { frameText } from '../sockets/frames.js';
import { MAX_SOCKETS_PER_ADDRESS } from '../sockets/flows.js';
import { until } from '#test/until.js';

/*
 * Every public write has a per-address limit answering 429 with Retry-After (docs/security.md, "Limits").
 * This app counts in a rate-limit namespace of its own (testConfig), and each case comes from an
 * address of its own, so the counts start at zero.
 */

/** Public writes without a limit of their own, and why. */
const UNLIMITED: Record<string, string> = {
  'POST /api/functions/:name': 'answers 404 for any unknown function and does nothing',
  'DELETE /api/leads/test-leads': 'a signed-in admin, or a direct request on this machine outside production (403 otherwise)',
  'POST /api/auth/sign-out': "ends the caller's own admin session",
};

const WRITES = /^(POST|PUT|PATCH|DELETE) /;
const isAdmin = (route: string) => /^\S+ (\/api\/admin\/|\/admin\/|\/api\/functions\/admin-fetch-data$)/.test(route);

let app: FastifyInstance;
let base: string;
let lastOctet = 0;
/** An address no other case used (the app trusts one proxy, so X-Forwarded-For is the client). */
const newAddress = () => `198.18.${Math.floor(++lastOctet / 250)}.${(lastOctet % 250) + 1}`;

let harness: TestApp;

beforeAll(async () => {
  harness = await buildTestApp({ listen: true, env: { TRUST_PROXY_HOPS: '1' } });
  ({ app, url: base } = harness);
});

afterAll(() => harness?.close());

/** Sends `count` requests from one address; returns the statuses and the last answer. */
async function burst(count: number, url: string, payload: unknown, address = newAddress()) {
  const statuses: number[] = [];
  let last: LightMyRequestResponse | undefined;
  for (let i = 0; i < count; i++) {
    last = await app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-forwarded-for': address } });
    statuses.push(last.statusCode);
  }
  return { statuses, last: last!, address };
}

describe('per-address limits on public writes', () => {
  it('every public write route is limited, except the ones listed with a reason', async () => {
    const writes = registeredRoutes(app).filter((route) => WRITES.test(route) && !isAdmin(route) && !(route in UNLIMITED));
    const unlimited: string[] = [];
    for (const route of writes) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/:id/g, '00000000-0000-4000-8000-000000000000').replace(':name', 'x');
      const answer = await app.inject({ method: method as 'POST', url, payload: {}, headers: { 'x-forwarded-for': newAddress() } });
      // the limiter counts before validation, so even a refused request carries its headers
      if (answer.headers['x-ratelimit-limit'] === undefined) unlimited.push(route);
    }
    expect(unlimited).toEqual([]);
    expect(writes.length).toBeGreaterThan(15);
  });

  it.each([
    ['flow starts', '/api/flows', { mode: 'sideways' }, rateLimits.flowStarts.max],
    ['createOrUpdateLead', '/api/leads', { email: 'not an address' }, rateLimits.leads.max],
    ['token checks', '/api/leads/check-token', { token: 'guess-0000000000000000' }, rateLimits.tokens.max],
    ['standalone diagnostics', '/api/diagnostics', { leadId: 'nope' }, rateLimits.diagnostics.max],
  ])('%s: %s answers 429 with Retry-After after its limit, for that address only', async (_name, url, payload, max) => {
    const { statuses, last, address } = await burst(max + 1, url, payload);
    expect(statuses.slice(0, max).every((status) => status !== 429)).toBe(true);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(last.json().message).toMatch(/^Too many requests\. Please wait .+ and try again\.$/);
    // another address is not affected
    const other = await burst(1, url, payload);
    expect(other.statuses).not.toContain(429);
    expect(address).not.toBe(other.address);
  });

  it(`holds at most ${MAX_SOCKETS_PER_ADDRESS} open flow sockets per address, answering 429 to the next`, async () => {
    const address = newAddress();
    const open = (from: string) =>
      new Promise<{ socket: WebSocket } | { status: number; retryAfter: string | undefined }>((resolve, reject) => {
        const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, { headers: { 'x-forwarded-for': from } });
        socket.once('open', () => resolve({ socket }));
        socket.once('unexpected-response', (_request, response) =>
          resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] }),
        );
        socket.once('error', reject);
      });
    const sockets: WebSocket[] = [];
    try {
      for (let i = 0; i < MAX_SOCKETS_PER_ADDRESS; i++) {
        const opened = await open(address);
        if (!('socket' in opened)) throw new Error(`socket ${i} refused with ${opened.status}`);
        sockets.push(opened.socket);
      }
      expect(await open(address)).toEqual({ status: 429, retryAfter: '60' });
      const elsewhere = await open(newAddress());
      expect(elsewhere).toHaveProperty('socket');
      if ('socket' in elsewhere) sockets.push(elsewhere.socket);

      // a closed socket gives its place back
      const closing = sockets.shift()!;
      await new Promise((resolve) => {
        closing.once('close', resolve);
        closing.close();
      });
      // the server hears the close on its own side a moment after this one does: ask until it has
      await until(
        async () => {
          const again = await open(address);
          if ('socket' in again) sockets.push(again.socket);
          return 'socket' in again;
        },
        1_000,
        'the place of a closed socket was not given back',
      );
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it('refuses subscribe frames past 60 a minute on one socket, and keeps the socket open', async () => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, { headers: { 'x-forwarded-for': newAddress() } });
    const errors: string[] = [];
    socket.on('message', (raw) => {
      const frame = JSON.parse(frameText(raw));
      if (frame.type === 'error') errors.push(frame.error);
    });
    await new Promise((resolve) => socket.once('open', resolve));
    for (let i = 0; i < 61; i++) socket.send(JSON.stringify({ type: 'subscribe', flowId: '00000000-0000-4000-8000-000000000000' }));
    await until(() => errors.length >= 61, 5_000, `${errors.length} of 61 error frames`);
    expect(errors.filter((error) => error.startsWith('No flow with id'))).toHaveLength(60);
    expect(errors.filter((error) => error.startsWith('At most 60 subscriptions a minute'))).toHaveLength(1);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});
