import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import type { Integration, IntegrationKey } from '#machines/protocol/admin/integrations.js';

/* A database of its own: integration_settings is one row per card for the whole deployment. */

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;
let admin: SignedInAdmin;

function asAdmin(options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, ...admin.headers } });
}
const list = async () => {
  const response = await asAdmin({ method: 'GET', url: '/api/admin/integrations' });
  expect(response.statusCode, response.body).toBe(200);
  return Object.fromEntries((response.json().integrations as Integration[]).map((card) => [card.key, card])) as Record<
    IntegrationKey,
    Integration
  >;
};
const put = (key: string, payload: Record<string, unknown>) => asAdmin({ method: 'PUT', url: `/api/admin/integrations/${key}`, payload });

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  admin = await signedInAdmin(pool);
});

afterAll(() => harness?.close());

beforeEach(async () => {
  await pool.query('DELETE FROM integration_settings');
});

describe('/api/admin/integrations', () => {
  it('lists the six cards, off and unconfigured until saved; analytics built in and on', async () => {
    const cards = await list();
    expect(Object.keys(cards)).toEqual(['payments', 'scheduling', 'automation', 'email_marketing', 'team_chat', 'analytics']);
    expect(cards.scheduling).toMatchObject({ enabled: false, configured: false, value: null, secret: false });
    expect(cards.automation).toMatchObject({ enabled: false, configured: false, value: null, secret: true, signingSecret: null });
    expect(cards.analytics).toMatchObject({ enabled: true, configured: true });
  });

  it('refuses anonymous callers and a PUT without the CSRF token', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/admin/integrations' })).statusCode).toBe(401);
    const noCsrf = await app.inject({
      method: 'PUT',
      url: '/api/admin/integrations/scheduling',
      payload: { enabled: true },
      headers: { cookie: `hf_session=${admin.cookie}` },
    });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('keeps the booking URL in clear and gives it to GET /api/config only while enabled and configured', async () => {
    const url = 'https://cal.example.com/coach/intro';
    expect((await put('scheduling', { enabled: true })).json()).toMatchObject({ enabled: true, configured: false });
    expect((await app.inject('/api/config')).json().bookingUrl).toBeNull();
    const saved = await put('scheduling', { value: url });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ key: 'scheduling', enabled: true, configured: true, value: url });
    expect((await list()).scheduling.value).toBe(url);
    expect((await app.inject('/api/config')).json().bookingUrl).toBe(url);
    await put('scheduling', { enabled: false });
    expect((await app.inject('/api/config')).json().bookingUrl).toBeNull();
    const row = await pool.query('SELECT updated_by FROM integration_settings WHERE key = $1', ['scheduling']);
    expect(row.rows[0].updated_by).toEqual(expect.any(String));
  });

  it('masks secrets when read back and keeps them when a save leaves the value out (write-only)', async () => {
    const hook = 'https://hooks.example.com/services/T000/B000/abcdefSECRET9876';
    const saved = await put('team_chat', { enabled: true, value: hook });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain('SECRET');
    expect(saved.json()).toMatchObject({ configured: true, value: '••••••••9876' });
    const key = 'mk_live_0123456789abcdef';
    expect((await put('email_marketing', { enabled: true, value: key })).json().value).toBe('••••••••cdef');

    const listed = await asAdmin({ method: 'GET', url: '/api/admin/integrations' });
    expect(listed.body).not.toContain('SECRET');
    expect(listed.body).not.toContain(key);

    // toggling off and on without a value keeps the stored secret
    await put('team_chat', { enabled: false });
    expect((await put('team_chat', { enabled: true })).json()).toMatchObject({ enabled: true, configured: true, value: '••••••••9876' });
    const row = await pool.query('SELECT value FROM integration_settings WHERE key = $1', ['team_chat']);
    expect(row.rows[0].value).toBe(hook);
  });

  it('gives the automation card a signing secret on its first save', async () => {
    const first = (await put('automation', { enabled: true, value: 'https://automate.example.com/hook/one' })).json();
    expect(first).toMatchObject({ configured: true, value: '••••••••/one', signingSecret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/) });
  });

  it('keeps the scheduling webhook signing key write-only: masked when read, kept by other saves, cleared by a blank', async () => {
    const key = 'calendly-signing-key-0123456789';
    const saved = await put('scheduling', { enabled: true, webhookKey: `  ${key}  ` });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ webhookKey: '••••••••6789' });
    expect((await asAdmin({ method: 'GET', url: '/api/admin/integrations' })).body).not.toContain(key);
    await put('scheduling', { value: 'https://cal.example.com/b' });
    const row = await pool.query("SELECT webhook_key FROM integration_settings WHERE key = 'scheduling'");
    expect(row.rows[0].webhook_key).toBe(key);
    const short = await put('scheduling', { webhookKey: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/webhookKey/);
    expect((await put('automation', { webhookKey: key })).statusCode).toBe(400);
    expect((await put('scheduling', { webhookKey: '' })).json()).toMatchObject({ webhookKey: null });
  });

  it("keeps the email-marketing card's Brevo list id: a whole number, kept by other saves, cleared by a blank; no other card has one", async () => {
    const saved = await put('email_marketing', { enabled: true, value: 'xkeysib-0123456789abcdef', listId: ' 12 ' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ listId: '12', lastSync: null, value: '••••••••cdef' });
    expect((await put('email_marketing', { enabled: false })).json()).toMatchObject({ listId: '12' });
    for (const listId of ['seven', '0', '-3', '1.5']) {
      const refused = await put('email_marketing', { listId });
      expect(refused.statusCode, listId).toBe(400);
      expect(refused.json().message).toMatch(/listId/);
    }
    expect((await put('automation', { listId: '3' })).statusCode).toBe(400);
    expect((await list()).scheduling).toMatchObject({ listId: null, lastSync: null });
    expect((await put('email_marketing', { listId: '' })).json()).toMatchObject({ listId: null });
  });

  it('a blank value clears the card and does not mark it configured', async () => {
    await put('scheduling', { enabled: true, value: 'https://cal.example.com/a' });
    const cleared = await put('scheduling', { value: '   ' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ enabled: true, configured: false, value: null });
    const blankFirst = await put('email_marketing', { enabled: true, value: '' });
    expect(blankFirst.json()).toMatchObject({ configured: false, value: null });
  });

  it('answers 400 to a bad URL, an unknown card or field, a value for a card without one, and to any change to analytics', async () => {
    for (const [key, value] of [
      ['scheduling', 'cal.example.com/coach'],
      ['automation', 'http://automate.example.com/hook'],
      ['team_chat', 'ftp://hooks.example.com/x'],
      ['payments', 'anything'],
    ] as const) {
      const response = await put(key, { enabled: true, value });
      expect(response.statusCode, `${key} ${value}`).toBe(400);
    }
    expect((await put('payments', { enabled: true })).statusCode).toBe(200);
    expect((await put('nope', { enabled: true })).statusCode).toBe(400);
    expect((await put('scheduling', { enabled: 'yes' })).statusCode).toBe(400);
    expect((await put('scheduling', { enabled: true, extra: 1 })).statusCode).toBe(400);
    const analytics = await put('analytics', { enabled: false });
    expect(analytics.statusCode).toBe(400);
    expect(analytics.json().message).toMatch(/built in/);
    expect((await list()).analytics).toMatchObject({ enabled: true });
    // nothing was stored by the refused saves
    expect((await list()).automation).toMatchObject({ enabled: false, configured: false });
  });
});
