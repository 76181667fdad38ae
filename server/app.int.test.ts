import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { freePort } from '#scripts/services/free-port.js';
import { until } from '#test/until.js';
import { DATABASE_DOWN_MESSAGE } from './plugins/error-handler.js';
import { frameText } from './sockets/frames.js';

describe('GET /healthz and /readyz', () => {
  it('answers 200 when PostgreSQL and Redis both answer', async () => {
    const { app, close } = await buildTestApp();
    try {
      const health = await app.inject('/healthz');
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok' });
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
    } finally {
      await close();
    }
  });

  it('answers 503 naming Redis when Redis is unreachable', async () => {
    const { app, close } = await buildTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'down' }, message: 'redis is not answering' });
      expect((await app.inject('/healthz')).statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it('answers 503 naming PostgreSQL when the database is unreachable', async () => {
    const { app, close } = await buildTestApp({ env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/none` } });
    try {
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json(), ready.body).toMatchObject({ checks: { postgres: 'down', redis: 'ok' }, message: 'postgres is not answering' });
      const started = await app.inject({ method: 'POST', url: '/api/flows', payload: {} });
      expect(started.statusCode).toBe(503);
      expect(started.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: DATABASE_DOWN_MESSAGE });
    } finally {
      await close();
    }
  });
});

describe('the app over real HTTP and websockets', () => {
  let harness: TestApp;
  let base: string;

  beforeAll(async () => {
    harness = await buildTestApp({ listen: true });
    base = new URL(harness.url).host;
  });

  afterAll(() => harness?.close());

  it('answers unknown API paths with the JSON error shape', async () => {
    const response = await fetch(`http://${base}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'No route for GET /api/nothing-here' });
  });

  it('serves a public page rendered and any other page path as the app shell, uncached', async () => {
    const rendered = await fetch(`http://${base}/about?x=1`, { headers: { accept: 'text/html' } });
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('cache-control')).toBe('no-cache');
    expect(await rendered.text()).toMatch(/<div id="root"><a href="#main"/);
    const shell = await fetch(`http://${base}/survey`, { headers: { accept: 'text/html' } });
    expect(shell.status).toBe(200);
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    expect(await shell.text()).toContain('<div id="root"></div>');
  });

  it('answers like a web server whatever the Accept header: a page is 200 HTML, an unknown path 404 HTML, an API path JSON', async () => {
    for (const accept of ['*/*', 'text/html', 'application/json', '']) {
      const headers = accept ? { accept } : undefined;
      for (const page of ['/', '/about', '/survey', '/admin/leads', `/admin/leads/${crypto.randomUUID()}`]) {
        const response = await fetch(`http://${base}${page}`, { headers });
        expect(response.status, `${page} with Accept ${accept}`).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/html');
      }
      const unknown = await fetch(`http://${base}/no-such-page`, { headers });
      expect(unknown.status, `unknown with Accept ${accept}`).toBe(404);
      expect(await unknown.text()).toContain('Oops! Page not found');
    }
    const head = await fetch(`http://${base}/no-such-page`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    const api = await fetch(`http://${base}/api/nothing-here`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const html = await (await fetch(`http://${base}/`, { headers: { accept: 'text/html' } })).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const response = await fetch(`http://${base}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
  });

  it('keeps a websocket open through a malformed frame and answers with an error frame', async () => {
    const socket = new WebSocket(`ws://${base}/api/ws`);
    const frames: unknown[] = [];
    const next = async () => {
      await until(() => frames.length > 0, 5_000, 'no frame came');
      return frames.shift();
    };
    socket.on('message', (data) => frames.push(JSON.parse(frameText(data))));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    expect(await next()).toEqual({ type: 'hello' });
    socket.send('not json');
    expect(await next()).toEqual({ type: 'error', error: 'Messages must be JSON.' });
    socket.send(JSON.stringify({ type: 'launch-rockets' }));
    expect(await next()).toMatchObject({ type: 'error' });
    socket.send(JSON.stringify({ type: 'subscribe', flowId: 'not-a-uuid' }));
    expect(await next()).toEqual({ type: 'error', error: expect.stringContaining('flowId') });
    const unknown = '00000000-0000-4000-8000-000000000000';
    socket.send(JSON.stringify({ type: 'subscribe', flowId: unknown }));
    expect(await next()).toEqual({ type: 'error', flowId: unknown, error: `No flow with id ${unknown}` });
    socket.send(JSON.stringify({ type: 'ping' }));
    expect(await next()).toEqual({ type: 'pong' });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});
