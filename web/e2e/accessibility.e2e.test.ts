import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGradedLead } from '#test/admin-leads-fixtures.js';
import { monitorTexts } from '#machines/monitor-connection/monitor-connection.machine.js';
import { axeViolations, type AxeViolation } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openAdminPage, openPage, signedInAdminState, type StorageState } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

/*
 * axe-core on the screens the other browser tests do not scan, at both widths, failing on a
 * violation of any impact: the public pages a visitor reaches from an email or the assessment
 * (site.e2e.test.ts scans the marketing pages, assessment.e2e.test.ts every modal step) and every
 * admin screen. bull-board's pages are not the product's markup: their findings are listed here by
 * rule (BULL_BOARD_FINDINGS), so a new one shows.
 */

const SHOTS = '/tmp/shots-a11y';

/** The public pages opened from an email's link or mid-journey, with what shows once each has settled. */
const PUBLIC_PAGES: Array<{ path: string; ready: (page: Page) => Promise<unknown> }> = [
  { path: '/diagnostic', ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor() },
  { path: '/mirror', ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor() },
  { path: '/results', ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor() },
  {
    path: '/resume?token=not-a-real-token',
    ready: (page) => page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor(),
  },
  { path: '/unsubscribe?token=not-a-real-token', ready: (page) => page.getByRole('heading', { level: 1 }).waitFor() },
  {
    path: '/confirm?token=not-a-real-token',
    ready: (page) => page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor(),
  },
];

/** Every admin screen (a lead's page is added once seeded). */
const ADMIN_SCREENS = [
  '/admin',
  '/admin/leads',
  '/admin/integrations',
  '/admin/monitor',
  '/admin/messages',
  '/admin/mirror-sessions',
  '/admin/jobs',
  '/admin/machines',
  '/admin/grading',
  '/admin/emails',
  '/admin/settings',
  '/admin/no-such-screen',
];

/** What axe finds in bull-board's own pages (not the product's markup), by rule. */
const BULL_BOARD_FINDINGS = [
  'button-name',
  'color-contrast',
  'image-redundant-alt',
  'label-content-name-mismatch',
  'page-has-heading-one',
  'svg-img-alt',
];

const describeFindings = (path: string, found: AxeViolation[]) =>
  found.map((violation) => `${path}: ${violation.impact} ${violation.id} ${violation.help} ${violation.targets.join(', ')}`);

describe('accessibility of every screen, any impact, at 390 and 1280 px', () => {
  let browser: Browser;
  let server: TestServer;
  let signedIn: StorageState;
  let leadPath: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // no Slack signing secret: the monitor's not-configured state
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
    signedIn = await signedInAdminState(browser, server.url, server.pool, `a11y-${Date.now()}@example.com`);
    const lead = await seedGradedLead(server.pool, 'book_call');
    // the diagnostic's result, so its report opens from the lead page
    await server.pool.query(
      `INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version)
       VALUES ($1, $2, '{"LER": 60}', 'Reluctant Steward', 'A narrative.', '2.0.0', '1')`,
      [lead.diagnosticId, lead.leadId],
    );
    // an email from before decision 0040, its report attached
    await server.pool.query(
      `INSERT INTO email_outbox (lead_id, kind, to_address, subject, text_body, status, sent_at, attachments)
       VALUES ($1, 'results', $2, 'Your leadership results', 'Your report is attached.', 'sent', now(), $3)`,
      [lead.leadId, lead.email, JSON.stringify([{ filename: 'leadership-report.pdf', contentType: 'application/pdf', size: 5120 }])],
    );
    leadPath = `/admin/leads/${lead.leadId}`;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    it(`the public pages a visitor reaches from an email or mid-journey, at ${viewport.width} px`, async () => {
      const { context, page } = await openPage(browser, viewport);
      const found: string[] = [];
      for (const { path, ready } of PUBLIC_PAGES) {
        await page.goto(`${server.url}${path}`);
        await ready(page);
        found.push(...describeFindings(path, await axeViolations(page)));
      }
      await context.close();
      expect(found).toEqual([]);
    });

    it(`every admin screen, at ${viewport.width} px`, async () => {
      const { context, page } = await openAdminPage(browser, signedIn, viewport);
      const found: string[] = [];
      for (const path of [...ADMIN_SCREENS, leadPath]) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        // loaded: no skeleton or busy region left
        await expect.poll(() => page.locator('[aria-busy="true"]').count(), { message: path }).toBe(0);
        await page.screenshot({
          path: `${SHOTS}/${path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'admin'}-${viewport.width}.png`,
          fullPage: true,
        });
        found.push(...describeFindings(path, await axeViolations(page)));
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }

  it("lists bull-board's own findings by rule, without hiding them", async () => {
    const { context, page } = await openAdminPage(browser, signedIn, DESKTOP);
    await page.goto(`${server.url}/admin/queues`);
    await page.getByText('grading').first().waitFor();
    await page.getByText('No workers').first().waitFor();
    // bull-board's markup as it ships (@bull-board/ui): a finding not listed here fails, as one listed and gone does
    const rules = [...new Set((await axeViolations(page)).map((violation) => violation.id))].sort();
    expect(rules).toEqual(BULL_BOARD_FINDINGS);
    await context.close();
  });

  it('the monitor says in one sentence that Slack events are not configured, never Connected to Slack', async () => {
    const { context, page } = await openAdminPage(browser, signedIn, MOBILE);
    // every status the line shows, from the first: 'Connected to Slack' must not flash before the server's word
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { statusSeen: string[] }).statusSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="monitor-status"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${server.url}/admin/monitor`);
    const status = page.getByTestId('monitor-status');
    await expect.poll(() => status.textContent()).toBe(monitorTexts.connectedNotConfigured);
    expect(await page.getByText('Connected to Slack').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { statusSeen: string[] }).statusSeen)).not.toContain(monitorTexts.connected);
    expect(await page.getByRole('status').filter({ hasText: 'not configured' }).count()).toBe(1);
    await context.close();
  });

  it('Overview warns about the platform home pages a fresh install links to, and the warning leads to Site settings', async () => {
    const { context, page } = await openAdminPage(browser, signedIn, DESKTOP);
    await page.goto(`${server.url}/admin`);
    const notice = page.locator('[data-notice="placeholder-links"]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain("still link to the platform's home page, not to yours");
    await notice.getByRole('link', { name: 'Set them in Site settings' }).click();
    await page.waitForURL(`${server.url}/admin/settings`);
    await context.close();
  });

  it("opens a lead's report and an email's attached report from the lead page", async () => {
    const { context, page } = await openAdminPage(browser, signedIn, MOBILE);
    await page.goto(`${server.url}${leadPath}`);
    const report = page.getByRole('link', { name: /^Open report/ });
    await report.waitFor();
    const opened = await page.request.get(new URL((await report.getAttribute('href'))!, server.url).href);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toBe('application/pdf');

    await page.getByText('Read the email').first().click();
    const attachment = page.getByRole('link', { name: 'leadership-report.pdf' });
    await attachment.waitFor();
    const attached = await page.request.get(new URL((await attachment.getAttribute('href'))!, server.url).href);
    expect(attached.status()).toBe(200);
    expect(attached.headers()['content-type']).toBe('application/pdf');
    expect(await attachment.getAttribute('target')).toBe('_blank');

    // a stranger with the same address is refused
    const stranger = await browser.newContext();
    expect((await stranger.request.get(new URL((await report.getAttribute('href'))!, server.url).href)).status()).toBe(401);
    await stranger.close();
    await context.close();
  });
});
