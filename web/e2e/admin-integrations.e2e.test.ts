import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { MOBILE, openAdminPage, openPage, signedInAdminState, toast, type StorageState } from './pages.js';
import { startTestServer, type TestServer } from './server.js';
import { fakeBrevo, type FakeBrevo } from '#test/fake-brevo.js';
import { recordContactSyncFailed } from '#core/integrations/marketing-contacts.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';

const SHOTS = '/tmp/shots-integrations';
/*
 * The run's database is shared with other browser tests: only the email-marketing card is saved
 * here (it has no side effect on flows), the automation card is only ever stored switched off (so
 * no other test's flow sends to it), and both rows are removed afterwards. Brevo is a loopback fake.
 */
const API_KEY = 'mk_e2e_0123456789abcdefWXYZ';

describe('the Integrations screen in a real browser', () => {
  let browser: Browser;
  let server: TestServer;
  let signedIn: StorageState;
  let brevo: FakeBrevo;
  let syncedLeadId: string | undefined;

  const adminPage = (viewport?: { width: number; height: number }) => openAdminPage(browser, signedIn, viewport);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    brevo = await fakeBrevo(API_KEY, [7], { closeAfterTest: false });
    server = await startTestServer({ privatePrefix: true, fakes: { brevo: brevo.url } });
    browser = await launchBrowser();
    await server.pool.query("DELETE FROM integration_settings WHERE key IN ('email_marketing', 'automation')");
    const email = `integrations-e2e-${Date.now()}@example.com`;
    signedIn = await signedInAdminState(browser, server.url, server.pool, email);
  });

  afterAll(async () => {
    await server?.pool.query("DELETE FROM integration_settings WHERE key IN ('email_marketing', 'automation')");
    if (syncedLeadId) await server?.pool.query('DELETE FROM marketing_contacts WHERE lead_id = $1', [syncedLeadId]);
    await browser?.close();
    await server?.close();
    await brevo?.close();
  });

  it('sends a visitor without a session to /auth', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${server.url}/admin/integrations`);
    await page.waitForURL(`${server.url}/auth`);
    await context.close();
  });

  it('filters by category, toggles a card, saves a non-blank key (Configuration Saved) and reads it back masked after a reload', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/integrations`);
    await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
    const filter = page.getByRole('group', { name: 'Filter by category' });
    for (const name of ['All', 'Payments', 'Scheduling', 'Automation', 'Marketing', 'Communication', 'Analytics']) {
      await filter.getByRole('button', { name, exact: true }).waitFor();
    }
    const cards = page.locator('[data-integration]');
    expect(await cards.count()).toBe(6);
    await page.getByText('Built-in & Active').waitFor();
    expect(
      await page
        .getByRole('link', { name: /opens in a new tab/ })
        .first()
        .getAttribute('target'),
    ).toBe('_blank');
    await page.getByRole('heading', { name: 'Need help connecting?' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/integrations-1280.png`, fullPage: true });

    await filter.getByRole('button', { name: 'Marketing', exact: true }).click();
    await expect.poll(() => cards.count()).toBe(1);
    const card = page.locator('[data-integration="email_marketing"]');
    const field = card.getByLabel('API key');
    expect(await field.count()).toBe(0);

    await card.getByRole('switch').click();
    await field.waitFor();
    const save = card.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await field.fill('   ');
    expect(await save.isDisabled()).toBe(true);
    await field.fill(API_KEY);
    expect(await save.isDisabled()).toBe(false);
    await save.click();
    await toast(page, 'Configuration Saved').waitFor();
    expect(await field.inputValue()).toBe('');
    await card.getByText('Configured (••••••••WXYZ)').waitFor();

    const stored = await server.pool.query("SELECT enabled, configured, value FROM integration_settings WHERE key = 'email_marketing'");
    expect(stored.rows[0]).toEqual({ enabled: true, configured: true, value: API_KEY });

    await page.reload();
    await page.locator('[data-integration="email_marketing"]').getByText('Configured (••••••••WXYZ)').waitFor();
    expect(await page.content()).not.toContain(API_KEY);
    expect(await page.locator('[data-integration="email_marketing"]').getByRole('switch').getAttribute('aria-checked')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the email-marketing card saves its Brevo list, tests the key and shows the last sync's failure in words", async () => {
    await server.pool.query(
      `INSERT INTO integration_settings (key, enabled, configured, value) VALUES ('email_marketing', true, true, $1)
       ON CONFLICT (key) DO UPDATE SET enabled = true, configured = true, value = $1, list_id = NULL`,
      [API_KEY],
    );
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/integrations`);
    const card = page.locator('[data-integration="email_marketing"]');
    await card.getByRole('heading', { name: 'Brevo' }).waitFor();
    await card.getByText('No lead synced yet.').waitFor();

    const list = card.getByLabel('Brevo list ID');
    await list.fill('7');
    await card.getByRole('button', { name: 'Save list' }).click();
    await toast(page, 'List Saved').waitFor();
    const stored = await server.pool.query("SELECT list_id FROM integration_settings WHERE key = 'email_marketing'");
    expect(stored.rows[0]).toEqual({ list_id: '7' });
    await list.fill('seven');
    await card.getByRole('button', { name: 'Save list' }).click();
    await toast(page, 'A Brevo list id is a whole number, e.g. 7.').waitFor();

    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByRole('status').getByText('Connected: Brevo accepted the API key.').waitFor();
    expect(brevo.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v3/account', apiKey: API_KEY, status: 200 });

    // a sync that Brevo refused, as the worker records it: the card says why after a reload
    const lead = await createOrUpdateLead(server.pool, { email: `marketing-e2e-${Date.now()}@example.com`, name: 'Mary Jackson' });
    syncedLeadId = lead.leadId;
    await recordContactSyncFailed(server.pool, lead.leadId, 'invalid API key (Brevo answered 401)');
    await page.reload();
    await page
      .locator('[data-integration="email_marketing"]')
      .getByText(/^Last sync failed: invalid API key \(Brevo answered 401\)/)
      .waitFor();
    await page.locator('[data-integration="email_marketing"]').screenshot({ path: `${SHOTS}/email-marketing.png` });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('rotates the automation signing secret: the new one is shown and stored, the old one is gone', async () => {
    const old = `whsec_${'ab'.repeat(32)}`;
    await server.pool.query(
      "INSERT INTO integration_settings (key, enabled, configured, value, signing_secret) VALUES ('automation', false, true, 'https://93.184.216.34/hook', $1)",
      [old],
    );
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/integrations`);
    const card = page.locator('[data-integration="automation"]');
    await card.getByText(old).waitFor();
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await toast(page, 'Signing Secret Rotated').waitFor();
    const stored = await server.pool.query<{ signing_secret: string }>(
      "SELECT signing_secret FROM integration_settings WHERE key = 'automation'",
    );
    const fresh = stored.rows[0]!.signing_secret;
    expect(fresh).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(fresh).not.toBe(old);
    await card.getByText(fresh).waitFor();
    expect(await card.getByText(old).count()).toBe(0);
    await card.screenshot({ path: `${SHOTS}/automation-rotated.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lays out at 390 px without sideways scrolling and has no serious accessibility violations', async () => {
    const { context, page, errors } = await adminPage(MOBILE);
    await page.goto(`${server.url}/admin/integrations`);
    await page.locator('[data-integration="analytics"]').waitFor();
    await page.screenshot({ path: `${SHOTS}/integrations-390.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
