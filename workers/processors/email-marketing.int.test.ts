import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fakeBrevo, type FakeBrevo } from '#test/fake-brevo.js';
import { flowAwaitingGrading } from '#test/flows.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { unsubscribeToken } from '#core/email/unsubscribe.js';
import { markEmailProven } from '#core/leads/lead-service.js';

const KEY = 'xkeysib-0123456789abcdef0123456789abcdef-TESTKEY1';

/** The app, a worker on the grading and webhooks queues, and a loopback Brevo; the card on with `key` and list 7. */
async function setup(key = KEY) {
  const brevo = await fakeBrevo(KEY, [7]);
  const { app, pool, config, close } = await buildTestApp({ ownDatabase: true, fakes: { brevo: brevo.url } });
  onTestFinished(close);
  await pool.query(
    `INSERT INTO integration_settings (key, enabled, configured, value, list_id) VALUES ('email_marketing', true, true, $1, '7')`,
    [key],
  );
  await buildTestWorker({ pool, config }, { queues: ['grading', 'webhooks'] });
  return { app, pool, brevo };
}

/** The address proven by the one setter every mailed link goes through, which queues the lead's sync with it. */
const prove = (pool: pg.Pool, leadId: string) => markEmailProven(pool, leadId);

const syncJobs = (pool: pg.Pool) =>
  pool.query<{ status: string; attempts: number; last_error: string | null }>(
    "SELECT status, attempts, last_error FROM jobs WHERE name = 'email_marketing:sync' ORDER BY created_at",
  );

const allSettled = async (pool: pg.Pool) => (await syncJobs(pool)).rows.every((job) => ['completed', 'failed'].includes(job.status));

const graded = (pool: pg.Pool, leadId: string) =>
  pool.query<{ tier: string; archetype: string }>('SELECT tier, archetype FROM lead_facts(true, NULL, NULL, ARRAY[$1::uuid])', [leadId]);

function contactOf(brevo: FakeBrevo, email: string) {
  return brevo.contacts.get(email.toLowerCase());
}

describe('email marketing (Brevo)', () => {
  it('a graded lead reaches the list only once its address is proven, with tier, archetype and source; a retake graded to another tier updates the same contact', async () => {
    const { pool, brevo } = await setup();
    const first = await flowAwaitingGrading(pool, 'homework', 'Grace Hopper');
    await until(async () => (await syncJobs(pool)).rows.length === 1 && (await allSettled(pool)));
    // graded but not proven: a typed address is not a confirmed lead, nothing is sent
    expect(brevo.requests).toEqual([]);
    expect((await pool.query("SELECT result FROM jobs WHERE name = 'email_marketing:sync'")).rows[0].result).toEqual({
      skipped: 'the address is not proven yet',
    });

    await prove(pool, first.leadId);
    await until(() => contactOf(brevo, first.email) !== undefined);
    const homework = (await graded(pool, first.leadId)).rows[0]!;
    expect(homework.tier).toBe('homework');
    const created = brevo.requests.find((request) => request.status === 201)!;
    expect(created).toMatchObject({ method: 'POST', path: '/v3/contacts', apiKey: KEY });
    expect(created.body).toEqual({
      email: first.email,
      attributes: { TIER: 'homework', ARCHETYPE: homework.archetype, SOURCE: 'website' },
      listIds: [7],
      updateEnabled: true,
    });
    expect(contactOf(brevo, first.email)).toMatchObject({ listIds: [7], attributes: { TIER: 'homework' } });

    // the same lead retakes the assessment and is graded book_call: the contact is updated, not doubled
    await flowAwaitingGrading(pool, 'book_call', 'Grace Hopper', first.email);
    await until(() => contactOf(brevo, first.email)?.attributes.TIER === 'book_call');
    await until(() => allSettled(pool));
    expect(brevo.contacts.size).toBe(1);
    expect(brevo.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v3/contacts', status: 204 });
    const synced = await pool.query('SELECT synced_as, error FROM marketing_contacts WHERE lead_id = $1', [first.leadId]);
    expect(synced.rows).toEqual([{ synced_as: 'subscribed', error: null }]);
  });

  it('a lead who unsubscribes is blocklisted and taken off the list at Brevo', async () => {
    const { app, pool, brevo } = await setup();
    const lead = await flowAwaitingGrading(pool, 'book_call', 'Ada Lovelace');
    await prove(pool, lead.leadId);
    await until(() => contactOf(brevo, lead.email) !== undefined);
    await until(() => allSettled(pool));

    const token = await unsubscribeToken(pool, lead.leadId);
    const answer = await app.inject({
      method: 'POST',
      url: `/api/email/unsubscribe?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    await until(() => contactOf(brevo, lead.email)?.emailBlacklisted === true);
    const put = brevo.requests.find((request) => request.method === 'PUT')!;
    expect(put).toMatchObject({
      path: `/v3/contacts/${encodeURIComponent(lead.email)}?identifierType=email_id`,
      apiKey: KEY,
      body: { emailBlacklisted: true, unlinkListIds: [7] },
      status: 204,
    });
    expect(contactOf(brevo, lead.email)!.listIds).toEqual([]);
    await until(async () => (await pool.query("SELECT 1 FROM marketing_contacts WHERE synced_as = 'unsubscribed'")).rowCount === 1);
  });

  it('a 429 (rate limited) is retried with backoff and the lead ends as one contact', async () => {
    const { pool, brevo } = await setup();
    const lead = await flowAwaitingGrading(pool, 'homework', 'Katherine Johnson');
    await until(async () => (await syncJobs(pool)).rows.length === 1 && (await allSettled(pool)));
    brevo.answerNext(429, 503);
    await prove(pool, lead.leadId);
    await until(async () => (await syncJobs(pool)).rows.at(-1)?.status === 'completed');
    expect(brevo.requests.map((request) => request.status)).toEqual([429, 503, 201]);
    expect(brevo.contacts.size).toBe(1);
    expect((await syncJobs(pool)).rows.at(-1)).toMatchObject({ status: 'completed', attempts: 3 });
    // the failures were shown while they lasted; the success clears them
    const synced = await pool.query('SELECT synced_as, error FROM marketing_contacts WHERE lead_id = $1', [lead.leadId]);
    expect(synced.rows).toEqual([{ synced_as: 'subscribed', error: null }]);
  });

  it('a wrong API key fails the sync at once, without retrying, and the card says why', async () => {
    const { app, pool, brevo } = await setup('xkeysib-not-the-right-key-0000');
    const lead = await flowAwaitingGrading(pool, 'homework', 'Dorothy Vaughan');
    await until(async () => (await syncJobs(pool)).rows.length === 1 && (await allSettled(pool)));
    await prove(pool, lead.leadId);
    await until(async () => (await syncJobs(pool)).rows.at(-1)?.status === 'failed');
    expect((await syncJobs(pool)).rows.at(-1)).toMatchObject({
      attempts: 1,
      last_error: 'email marketing: invalid API key (Brevo answered 401)',
    });
    expect(brevo.requests.map((request) => request.status)).toEqual([401]);
    expect(brevo.contacts.size).toBe(0);

    const admin = await signedInAdmin(pool);
    const cards = await app.inject({ method: 'GET', url: '/api/admin/integrations', headers: admin.headers });
    const card = cards.json().integrations.find((entry: { key: string }) => entry.key === 'email_marketing');
    expect(card).toMatchObject({ listId: '7', lastSync: { failed: true, message: 'invalid API key (Brevo answered 401)' } });
    // the key itself never comes back
    expect(cards.body).not.toContain('not-the-right-key');
  });

  it("the card's Test connection says whether Brevo accepts the saved key", async () => {
    const { app, pool } = await setup();
    const admin = await signedInAdmin(pool);
    const test = () => app.inject({ method: 'POST', url: '/api/admin/integrations/email_marketing/test', headers: admin.headers });
    expect((await test()).json()).toEqual({ ok: true, message: 'Connected: Brevo accepted the API key.' });
    await pool.query("UPDATE integration_settings SET value = 'xkeysib-wrong' WHERE key = 'email_marketing'");
    expect((await test()).json()).toEqual({ ok: false, message: 'Connection failed: invalid API key (Brevo answered 401)' });
    await pool.query("UPDATE integration_settings SET value = NULL, configured = false WHERE key = 'email_marketing'");
    const none = await test();
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('Save an API key first.');
  });
});
