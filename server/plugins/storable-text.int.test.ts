import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { registeredRoutes } from '#test/routes.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { frameText } from '../sockets/frames.js';
import { NESTING_MESSAGE } from './input-limits.js';
import { NUL_MESSAGE } from './storable-text.js';
import { until } from '#test/until.js';

let app: FastifyInstance;
let base: string;
let pool: pg.Pool;
let adminHeaders: Record<string, string>;

let harness: TestApp;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true });
  ({ app, pool, url: base } = harness);
  ({ headers: adminHeaders } = await signedInAdmin(pool));
});

afterAll(() => harness?.close());

/** Every table a request could write, counted. */
async function fingerprint() {
  const tables = [
    'leads',
    'flows',
    'flow_events',
    'jobs',
    'email_outbox',
    'contact_submissions',
    'diagnostics',
    'mirror_sessions',
    'lead_notes',
    'integration_settings',
    'site_settings',
    'site_visits',
    'users',
    'sessions',
  ];
  return (await pool.query(`SELECT ${tables.map((t) => `(SELECT count(*) FROM ${t})::int AS ${t}`).join(', ')}`)).rows[0];
}

/** A body with a NUL in the fields the routes read (names, emails, messages, events, settings). */
const NUL_BODY = {
  name: 'Ada\u0000Lovelace',
  email: 'ada\u0000@example.com',
  message: 'Hello\u0000',
  body: 'a note\u0000',
  value: 'https://example.com/\u0000',
  token: 'token\u0000token-token',
  event: { type: 'CAPTURE_SUBMIT', name: 'Ada\u0000', email: 'ada@example.com' },
  data: { leadId: null, survey: { q5_success: '\u0000' } },
  path: '/nowhere\u0000',
};

/** Signed webhooks read their raw bytes, which their signature check refuses first. */
const RAW_BODY_ROUTES = new Set(['POST /api/stripe/webhook', 'POST /api/slack/events', 'POST /api/integrations/scheduling/webhook']);
const SOCKETS = new Set(['GET /api/ws', 'GET /api/functions/slack-monitor', 'GET /api/admin/live']);

describe('text PostgreSQL cannot store', () => {
  it('every API route answers 400 naming the field for a NUL in its body or query, and nothing is stored', async () => {
    const routes = registeredRoutes(app).filter(
      (route) => route.split(' ')[1]!.startsWith('/api/') && !RAW_BODY_ROUTES.has(route) && !SOCKETS.has(route),
    );
    expect(routes.length).toBeGreaterThan(40);
    const before = await fingerprint();
    const wrong: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [InjectOptions['method'], string];
      const url = path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const hasBody = method !== 'GET' && method !== 'DELETE';
      const response = await app.inject({
        method,
        url: hasBody ? url : `${url}?q=a%00b`,
        headers: { ...adminHeaders, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        remoteAddress: `10.9.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`,
        ...(hasBody ? { payload: JSON.stringify(NUL_BODY) } : {}),
      });
      const fields = response.statusCode === 400 ? (response.json().fields as Record<string, string> | undefined) : undefined;
      if (response.statusCode !== 400 || !fields || !Object.values(fields).includes(NUL_MESSAGE))
        wrong.push(`${route} -> ${response.statusCode} ${response.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect(await fingerprint()).toEqual(before);
  });

  it('every API route answers 400 naming the field for a body nested thousands deep, and nothing is stored', async () => {
    // 8,000 levels in 48 KB: deeper than a recursive walk's call stack
    const deep = `{"event":${'{"a":'.repeat(8_000)}1${'}'.repeat(8_000)},"name":"Ada"}`;
    const routes = registeredRoutes(app).filter((route) => /^(POST|PUT|PATCH) \/api\//.test(route) && !RAW_BODY_ROUTES.has(route));
    expect(routes.length).toBeGreaterThan(20);
    const before = await fingerprint();
    const wrong: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [InjectOptions['method'], string];
      const response = await app.inject({
        method,
        url: path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000'),
        headers: { ...adminHeaders, 'content-type': 'application/json' },
        remoteAddress: `10.8.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`,
        payload: deep,
      });
      const fields = response.statusCode === 400 ? (response.json().fields as Record<string, string> | undefined) : undefined;
      if (fields?.event !== NESTING_MESSAGE) wrong.push(`${route} -> ${response.statusCode} ${response.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect(await fingerprint()).toEqual(before);
  });

  it('names the field, also in a route parameter and deep in an event', async () => {
    const deep = await app.inject({
      method: 'POST',
      url: '/api/flows/00000000-0000-4000-8000-000000000000/events',
      payload: { event: { type: 'SURVEY_SUBMITTED', answers: { q5_success: 'a\u0000' } } },
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().fields).toEqual({ 'event.answers.q5_success': NUL_MESSAGE });
    const param = await app.inject({ method: 'GET', url: '/api/flows/abc%00def' });
    expect(param.statusCode).toBe(400);
    expect(param.json().fields).toEqual({ id: NUL_MESSAGE });
  });

  it('a socket frame nested thousands deep gets an error frame, and the socket stays open', async () => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`);
    const frames: Array<{ type: string; error?: string }> = [];
    socket.on('message', (raw) => frames.push(JSON.parse(frameText(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(`{"type":"subscribe","flowId":${'['.repeat(8_000)}${']'.repeat(8_000)}}`);
    await until(() => frames.some((f) => f.type === 'error'), 5_000, 'no error frame');
    expect(frames.find((f) => f.type === 'error')).toEqual({ type: 'error', error: `flowId: ${NESTING_MESSAGE}` });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('a socket frame with a NUL gets an error frame naming the field, and the socket stays open', async () => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`);
    const frames: Array<{ type: string; error?: string }> = [];
    socket.on('message', (raw) => frames.push(JSON.parse(frameText(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'subscribe', flowId: 'x\u0000' }));
    await until(() => frames.some((f) => f.type === 'error'), 5_000, 'no error frame');
    expect(frames.find((f) => f.type === 'error')).toEqual({ type: 'error', error: `flowId: ${NUL_MESSAGE}` });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});
