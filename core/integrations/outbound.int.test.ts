import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { injectAs } from '#test/visitor.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { postWebhook } from './outbound.js';

/*
 * Outgoing webhooks carry lead personal data, so they may reach public addresses only. Loopback
 * listeners stand in for "this machine": every forbidden form of an address names them, and they
 * must see nothing, whether the URL is refused at save or (stored before, or a name that later
 * resolves privately) at send.
 */

let harness: TestApp;
let app: FastifyInstance;
let pool: pg.Pool;
let admin: SignedInAdmin;
let port: number;
const seen: string[] = [];
const listeners: Server[] = [];

/** A listener on `host`; every request it gets is recorded in `seen`. */
async function listen(host: string, at = 0): Promise<number> {
  const server = createServer((request, response) => {
    seen.push(`${host} ${request.method} ${request.url}`);
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(at, host, resolve));
  listeners.push(server);
  return (server.address() as AddressInfo).port;
}

function asAdmin(options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, ...admin.headers } });
}
const put = (key: string, payload: Record<string, unknown>) => asAdmin({ method: 'PUT', url: `/api/admin/integrations/${key}`, payload });

/** Every way of writing an address on this machine, its network or a metadata service, at `port`. */
function forbiddenHosts(): string[] {
  return [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::1]:${port}`,
    `2130706433:${port}`,
    `0177.0.0.1:${port}`,
    `0x7f.0.0.1:${port}`,
    `127.1:${port}`,
    `0.0.0.0:${port}`,
    `[::]:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `[::ffff:7f00:1]:${port}`,
    '169.254.169.254',
    'metadata.google.internal',
    'app.localhost',
    '10.0.0.5',
    '172.16.0.1',
    '192.168.1.10',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '[fd00::1]',
    '[fe80::1]',
  ];
}

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  port = await listen('127.0.0.1');
  await listen('::1', port);
  admin = await signedInAdmin(pool);
});

afterAll(async () => {
  await Promise.all(listeners.map((server) => new Promise((resolve) => server.close(resolve))));
  await harness?.close();
});

beforeEach(async () => {
  seen.length = 0;
  await pool.query('DELETE FROM integration_settings');
});

describe('webhook URLs at save', () => {
  it('refuses every form of a loopback, private, link-local, CGNAT, ULA, multicast or metadata address, over http and https', async () => {
    for (const key of ['automation', 'team_chat']) {
      for (const host of forbiddenHosts()) {
        for (const scheme of ['http', 'https']) {
          const url = `${scheme}://${host}/hook`;
          const response = await put(key, { enabled: true, value: url });
          expect(response.statusCode, `${key} ${url}`).toBe(400);
          expect(response.json().message, url).toMatch(/private network|https:\/\//);
        }
      }
    }
    const stored = await pool.query('SELECT key, value FROM integration_settings WHERE value IS NOT NULL');
    expect(stored.rows).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('refuses credentials in the URL, other schemes and plain http to a public host', async () => {
    for (const url of [
      'https://user:pass@hooks.example.com/x',
      'ftp://hooks.example.com/x',
      'http://93.184.216.34/hook',
      'file:///etc/passwd',
      'hooks.example.com/x',
    ]) {
      expect((await put('automation', { enabled: true, value: url })).statusCode, url).toBe(400);
    }
  });

  it('accepts a public https address, and a private one only when the deployment lists it', async () => {
    expect((await put('team_chat', { enabled: true, value: 'https://93.184.216.34/services/T0/B0/x' })).statusCode).toBe(200);
    expect((await put('automation', { enabled: true, value: 'https://[2606:4700::1111]/hook' })).statusCode).toBe(200);

    const office = await buildTestApp({ ownDatabase: true, env: { WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: '10.0.0.0/24, 127.0.0.1' } });
    try {
      const { headers } = await signedInAdmin(office.pool);
      const save = (value: string) =>
        office.app.inject({ method: 'PUT', url: '/api/admin/integrations/automation', payload: { enabled: true, value }, headers });
      expect((await save('http://10.0.0.5:8080/hook')).statusCode).toBe(200);
      expect((await save(`http://127.0.0.1:${port}/hook`)).statusCode).toBe(200);
      // listed means exactly that: the rest of the private network stays closed
      expect((await save('http://10.0.1.5/hook')).statusCode).toBe(400);
      expect((await save('https://192.168.1.10/hook')).statusCode).toBe(400);
      expect((await save(`http://[::1]:${port}/hook`)).statusCode).toBe(400);
    } finally {
      await office.close();
    }
  });
});

describe('webhook URLs at send', () => {
  it('connects to none of the forbidden forms, http or https, even when the URL is already stored', async () => {
    for (const host of forbiddenHosts().filter((entry) => entry.endsWith(`:${port}`))) {
      for (const scheme of ['http', 'https']) {
        const url = `${scheme}://${host}/hook`;
        await expect(postWebhook(url, { 'content-type': 'application/json' }, '{}', { allowedPrivate: [] }, 2000), url).rejects.toThrow(
          /not allowed/,
        );
      }
    }
    expect(seen).toEqual([]);
  });

  it('a lead event for a stored loopback URL fails at once and the listener sees nothing', async () => {
    await pool.query(
      `INSERT INTO integration_settings (key, enabled, configured, value, signing_secret) VALUES ('automation', true, true, $1, $2)`,
      [`http://localhost:${port}/hook`, `whsec_${'ab'.repeat(32)}`],
    );
    await buildTestWorker(harness, { queues: ['webhooks'] });
    const browser = injectAs(app);
    const flowId = (await browser({ method: 'POST', url: '/api/flows', payload: {} })).json().flowId as string;
    const captured = await browser({
      method: 'POST',
      url: `/api/flows/${flowId}/events`,
      payload: { event: { type: 'CAPTURE_SUBMIT', name: 'Ada', email: `ssrf-${randomBytes(3).toString('hex')}@example.com` } },
    });
    expect(captured.statusCode, captured.body).toBe(200);
    await until(
      async () =>
        (await pool.query("SELECT 1 FROM jobs WHERE queue = 'webhooks' AND flow_id = $1 AND status = 'failed'", [flowId])).rowCount === 1,
      15_000,
    );
    const job = await pool.query("SELECT attempts, last_error FROM jobs WHERE queue = 'webhooks' AND flow_id = $1", [flowId]);
    // not retried: it is the setting that must change, and the error never quotes the URL
    expect(job.rows[0]).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/private or reserved/) });
    expect(job.rows[0].last_error).not.toContain(String(port));
    expect(seen).toEqual([]);
  });

  it('never follows a redirect, even to a public-looking place', async () => {
    const second = await listen('127.0.0.1');
    const redirecting = createServer((_request, response) => {
      seen.push('redirector');
      response.writeHead(307, { location: `http://127.0.0.1:${second}/stolen` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    listeners.push(redirecting);
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`;
    expect(await postWebhook(url, {}, '{"lead":"data"}', { allowedPrivate: ['127.0.0.1'] }, 2000)).toBe(307);
    expect(seen).toEqual(['redirector']);
  });

  it('delivers to an address the deployment lists', async () => {
    expect(await postWebhook(`http://127.0.0.1:${port}/ok`, {}, '{}', { allowedPrivate: ['127.0.0.0/8'] }, 2000)).toBe(200);
    expect(seen).toEqual(['127.0.0.1 POST /ok']);
  });
});

describe('the automation signing secret', () => {
  it('changes when the URL changes, stays when the same URL is saved again, and rotates on request', async () => {
    const first = (await put('automation', { enabled: true, value: 'https://93.184.216.34/hook/one' })).json();
    expect(first.signingSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const again = (await put('automation', { value: 'https://93.184.216.34/hook/one' })).json();
    expect(again.signingSecret).toBe(first.signingSecret);
    const toggled = (await put('automation', { enabled: false })).json();
    expect(toggled.signingSecret).toBe(first.signingSecret);
    const moved = (await put('automation', { value: 'https://93.184.216.34/hook/two' })).json();
    expect(moved.signingSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(moved.signingSecret).not.toBe(first.signingSecret);

    const rotated = await asAdmin({ method: 'POST', url: '/api/admin/integrations/automation/rotate-secret' });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().signingSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.json().signingSecret).not.toBe(moved.signingSecret);
    const stored = await pool.query("SELECT signing_secret FROM integration_settings WHERE key = 'automation'");
    expect(stored.rows[0].signing_secret).toBe(rotated.json().signingSecret);
  });

  it('rotating needs an admin with the CSRF token, and a saved URL', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/admin/integrations/automation/rotate-secret' })).statusCode).toBe(401);
    const noCsrf = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations/automation/rotate-secret',
      headers: { cookie: `hf_session=${admin.cookie}` },
    });
    expect(noCsrf.statusCode).toBe(403);
    const none = await asAdmin({ method: 'POST', url: '/api/admin/integrations/automation/rotate-secret' });
    expect(none.statusCode).toBe(409);
    expect((await pool.query('SELECT 1 FROM integration_settings')).rowCount).toBe(0);
  });
});
