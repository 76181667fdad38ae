import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { QUEUE_NAMES } from '#core/queues/names.js';
import { SESSION_COOKIE } from '../../auth/sessions.js';
import { BULL_BOARD_PATH } from './bull-board.js';

let app: FastifyInstance;
let pool: pg.Pool;
let webRoot: string;
let harness: TestApp;
let admin: Record<string, string>;

const PAGE = { accept: 'text/html,application/xhtml+xml' };

beforeAll(async () => {
  // a built site of its own, so the single-page app's fallback is in play
  webRoot = mkdtempSync(path.join(tmpdir(), 'bull-board-site-'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>the site</title>');
  harness = await buildTestApp({ webRoot });
  ({ app, pool } = harness);
  ({ headers: admin } = await signedInAdmin(pool));
});

afterAll(async () => {
  await harness?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('bull-board at /admin/queues', () => {
  it('sends a signed-out browser to /auth, which returns to the board after signing in, and answers its API and assets 401', async () => {
    const page = await app.inject({ method: 'GET', url: BULL_BOARD_PATH, headers: PAGE });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/auth?next=${encodeURIComponent(BULL_BOARD_PATH)}`);
    expect((await app.inject({ method: 'GET', url: `${BULL_BOARD_PATH}/queue/email`, headers: PAGE })).headers.location).toBe(
      `/auth?next=${encodeURIComponent(`${BULL_BOARD_PATH}/queue/email`)}`,
    );
    const api = await app.inject({ method: 'GET', url: `${BULL_BOARD_PATH}/api/queues`, headers: PAGE });
    expect(api.statusCode).toBe(401);
    expect(api.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect((await app.inject({ method: 'GET', url: `${BULL_BOARD_PATH}/static/images/logo.svg` })).statusCode).toBe(401);
    const forged = await app.inject({
      method: 'GET',
      url: `${BULL_BOARD_PATH}/api/queues`,
      headers: { cookie: `${SESSION_COOKIE}=forged` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it("serves an admin bull-board's page (not the site's), under a CSP that allows only its inline styles", async () => {
    for (const url of [BULL_BOARD_PATH, `${BULL_BOARD_PATH}/`, `${BULL_BOARD_PATH}/queue/email`]) {
      const page = await app.inject({ method: 'GET', url, headers: { ...PAGE, ...admin } });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain(`<base href="${BULL_BOARD_PATH}/" />`);
      expect(page.body).not.toContain('the site');
      expect(page.headers['cache-control']).toBe('no-store');
    }
    const csp = String(
      (await app.inject({ method: 'GET', url: BULL_BOARD_PATH, headers: { ...PAGE, ...admin } })).headers['content-security-policy'],
    );
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    // the rest of the site keeps the strict policy
    const home = await app.inject({ method: 'GET', url: '/', headers: PAGE });
    expect(String(home.headers['content-security-policy'])).not.toContain('unsafe-inline');
    const logo = await app.inject({ method: 'GET', url: `${BULL_BOARD_PATH}/static/images/logo.svg`, headers: admin });
    expect(logo.statusCode).toBe(200);
  });

  it('lists every queue through its API, read-only', async () => {
    const response = await app.inject({ method: 'GET', url: `${BULL_BOARD_PATH}/api/queues`, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    const { queues } = response.json<{ queues: Array<{ name: string; readOnlyMode: boolean }> }>();
    expect(queues.map((queue) => queue.name).sort()).toEqual([...QUEUE_NAMES].sort());
    expect(queues.every((queue) => queue.readOnlyMode)).toBe(true);
  });

  it('refuses to change a queue: 403 without the CSRF header, refused by the read-only board with it', async () => {
    const url = `${BULL_BOARD_PATH}/api/queues/email/retry/failed`;
    expect((await app.inject({ method: 'PUT', url, headers: { cookie: admin.cookie! } })).statusCode).toBe(403);
    const readOnly = await app.inject({ method: 'PUT', url, headers: admin });
    expect(readOnly.statusCode).toBe(405);
    expect(readOnly.body).toContain('QUEUE_READ_ONLY');
  });
});
