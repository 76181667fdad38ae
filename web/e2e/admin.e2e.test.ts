import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowClient } from '#test/journey.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { createAdmin } from '#server/auth/admin-users.js';
import {
  ADMIN_PASSWORD,
  DESKTOP,
  MOBILE,
  openAdminPage,
  openPage,
  signedInAdminState,
  signInThroughPage,
  toast,
  type StorageState,
} from './pages.js';
import { startTestServer, type TestServer } from './server.js';
import { seedOutcome } from '#test/outcomes.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';

const SHOTS = '/tmp/shots-admin';
const FAILURE = 'Failed to fetch admin data. Please check your credentials and try again.';

interface Counts {
  totalLeads: number;
  diagnosticsCompleted: number;
  mirrorSessions: number;
  surveyResponses: number;
  contactMessages: number;
}

describe('the admin area in a real browser', () => {
  let browser: Browser;
  let server: TestServer;
  let email: string;
  let signedIn: StorageState;
  const stamp = Date.now();
  const leadEmail = `admin-e2e-lead-${stamp}@example.com`;
  const longMessage =
    `Hello from the admin test ${stamp}. ` +
    'We would like coaching for our whole leadership team, starting next quarter if possible. '.repeat(2);
  let contactId: string;
  let otherContactId: string;

  /** A page in a fresh context that already carries the admin's session cookie. */
  const adminPage = (viewport?: { width: number; height: number }) => openAdminPage(browser, signedIn, viewport);

  /**
   * The counters as the server counts them for the screen's default scope (the last 30 days in the
   * browser's time zone, real leads): what each number means is the integration tests' to prove;
   * here, that the screen shows them.
   */
  async function counts(page: Page): Promise<Counts> {
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const response = await page.request.get(`${server.url}/api/admin/overview?period=30d&tz=${encodeURIComponent(tz)}`);
    return ((await response.json()) as { counts: Counts }).counts;
  }

  /** A number the funnel's visually hidden table shows (what assistive technology reads). */
  async function funnelStep(page: Page, step: string): Promise<number> {
    return Number((await page.locator(`[data-funnel-table] tr[data-step="${step}"] td`).first().textContent())!.replace(/,/g, ''));
  }

  async function leadsOn(page: Page, day: string): Promise<number> {
    return Number(await page.locator(`[data-leads-table] tr[data-day="${day}"] td`).textContent());
  }

  /** Every funnel step and two days of the new-leads table, as the page shows them now. */
  async function chartNumbers(page: Page, days: string[]) {
    const numbers: Record<string, number> = {};
    for (const step of ['visits', 'captured', 'diagnosticDone', 'surveyDone', 'book_call', 'homework', 'nurture', 'depositsPaid'])
      numbers[step] = await funnelStep(page, step);
    for (const day of days) numbers[day] = await leadsOn(page, day);
    return numbers;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
    email = `admin-e2e-${stamp}@example.com`;
    await server.pool.query("INSERT INTO leads (email, name, source) VALUES ($1, 'Ada Admin-Test', 'e2e-admin')", [leadEmail]);
    await refreshAllLeadFacts(server.pool); // written past lead-service, which keeps each lead's summary
    const inserted = await server.pool.query<{ id: string }>(
      `INSERT INTO contact_submissions (name, email, company, message, created_at)
       VALUES ('Grace Tester', $1, 'Hopper Labs', $2, now() - interval '1 second'), ('Linus Other', $3, NULL, 'A short unrelated note about a workshop.', now())
       RETURNING id`,
      [`grace-${stamp}@example.com`, longMessage, `linus-${stamp}@example.com`],
    );
    contactId = inserted.rows[0]!.id;
    otherContactId = inserted.rows[1]!.id;
    signedIn = await signedInAdminState(browser, server.url, server.pool, email);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends a visitor without a session from /admin and /admin/messages to /auth', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/auth`);
    await page.goto(`${server.url}/admin/messages`);
    await page.waitForURL(`${server.url}/auth?next=%2Fadmin%2Fmessages`);
    await context.close();
  });

  it('shows the five counters from the database, the latest lead and the latest messages cut at 100 characters', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('cell', { name: leadEmail }).waitFor();
    const expected = await counts(page);
    for (const [key, label] of [
      ['totalLeads', 'Total Leads'],
      ['diagnosticsCompleted', 'Diagnostics Completed'],
      ['mirrorSessions', 'Mirror Sessions'],
      ['surveyResponses', 'Survey Responses'],
      ['contactMessages', 'Contact Messages'],
    ] as const) {
      const counter = page.locator(`[data-counter="${key}"]`);
      expect(await counter.locator('dt').textContent()).toBe(label);
      expect(Number((await counter.locator('dd').textContent())!.replace(/,/g, ''))).toBe(expected[key]);
    }
    expect(expected.totalLeads).toBeGreaterThanOrEqual(1);
    expect(expected.contactMessages).toBeGreaterThanOrEqual(2);
    // a counter whose items have a screen of their own links to it, with the counter's scope
    expect(
      await page.locator('[data-counter="mirrorSessions"]').getByRole('link', { name: 'Mirror Sessions' }).getAttribute('href'),
    ).toMatch(/^\/admin\/mirror-sessions\?from=\d{4}-\d{2}-\d{2}$/);
    expect(await page.locator('[data-counter="diagnosticsCompleted"]').getByRole('link').count()).toBe(0);

    const leads = page.getByRole('region', { name: 'Recent Leads' });
    expect(await leads.getByRole('row').count()).toBe(1 + Math.min(5, expected.totalLeads));
    expect(await leads.getByRole('row').filter({ hasText: leadEmail }).textContent()).toContain('e2e-admin');
    await leads.getByText(`Showing ${Math.min(5, expected.totalLeads)} of ${expected.totalLeads} total leads`).waitFor();

    const messages = page.getByRole('region', { name: 'Recent Messages' });
    const grace = messages.locator(`[data-message="${contactId}"]`);
    expect(await grace.textContent()).toContain('Grace Tester');
    expect(await grace.textContent()).toContain(`grace-${stamp}@example.com`);
    expect(await grace.textContent()).toContain('Hopper Labs');
    expect(await grace.getByText(`${longMessage.slice(0, 100)}...`, { exact: true }).count()).toBe(1);
    expect(await grace.textContent()).not.toContain(longMessage.slice(0, 101));
    expect(await messages.getByRole('listitem').count()).toBeLessThanOrEqual(3);
    await messages.getByText('A short unrelated note about a workshop.', { exact: true }).waitFor();

    // the refresh button picks up a new lead
    const newer = `admin-e2e-newer-${stamp}@example.com`;
    await server.pool.query("INSERT INTO leads (email, source) VALUES ($1, 'website')", [newer]);
    await refreshAllLeadFacts(server.pool);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await leads.getByRole('cell', { name: newer }).waitFor();
    expect(await page.locator('[data-counter="totalLeads"] dd').textContent()).toBe(
      new Intl.NumberFormat('en-US').format(expected.totalLeads + 1),
    );

    // a visitor giving their email in the assessment moves a flow: the counter follows without a Refresh
    const visitor = flowClient(server.url);
    const flow = await visitor.start();
    const captured = `admin-e2e-live-${stamp}@example.com`;
    await visitor.send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Live Lead', email: captured });
    await leads.getByRole('cell', { name: captured }).waitFor();
    await expect
      .poll(() => page.locator('[data-counter="totalLeads"] dd').textContent())
      .toBe(new Intl.NumberFormat('en-US').format(expected.totalLeads + 2));

    // the charts are part of what axe checks
    await page.locator('[data-period="30d"] svg[role="img"]').nth(1).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/overview-1280.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the empty texts for empty lists, and the Error toast and retry when the data cannot be fetched', async () => {
    const { context, page } = await adminPage();
    const isOverview = (url: URL) => url.pathname === '/api/admin/overview';
    // a fresh database is shared with other browser tests, so the empty answer is simulated
    await page.route(isOverview, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          period: '30d',
          timeZone: 'UTC',
          includeTest: false,
          from: '2026-01-01',
          to: '2026-01-30',
          counts: { totalLeads: 0, diagnosticsCompleted: 0, mirrorSessions: 0, surveyResponses: 0, contactMessages: 0 },
          recentLeads: [],
          recentMessages: [],
        }),
      }),
    );
    await page.goto(`${server.url}/admin`);
    await page.getByText('No leads captured yet').waitFor();
    await page.getByText('No messages received yet').waitFor();
    expect(await page.getByText(/total leads/).count()).toBe(0);

    await page.unroute(isOverview);
    await page.route(isOverview, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'boom' }),
      }),
    );
    await page.reload();
    const error = toast(page, 'Error');
    await error.waitFor();
    expect(await error.textContent()).toContain(FAILURE);
    expect(await error.getAttribute('data-toast')).toBe('destructive');
    await page.getByRole('button', { name: 'Try again' }).waitFor();

    await page.unroute(isOverview);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('[data-counter="totalLeads"] dd').filter({ hasText: /\d/ }).waitFor();
    await context.close();
  });

  it('draws the funnel and new leads per day from the database in the admin’s time zone, and counts a visit to the home page', async () => {
    const timeZone = 'Asia/Tokyo';
    const context = await browser.newContext({ viewport: DESKTOP, storageState: signedIn, timezoneId: timeZone });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const localDay = (instant: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
    const today = localDay(Date.now());
    const twoDaysAgo = localDay(Date.now() - 2 * 86_400_000);

    await page.goto(`${server.url}/admin`);
    await page.getByText(`Days are in ${timeZone} time.`).waitFor();
    await page.locator('[data-period="30d"]').waitFor();
    expect(await page.locator('[data-leads-table] tbody tr').count()).toBe(30);
    await page.locator('label', { hasText: 'Last 7 days' }).click();
    await page.locator('[data-period="7d"]').waitFor();
    expect(await page.getByRole('radio', { name: 'Last 7 days' }).isChecked()).toBe(true);
    const days = await page.locator('[data-leads-table] tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-day')));
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toBe(today);
    expect(days).toContain(twoDaysAgo);
    const before = await chartNumbers(page, [today, twoDaysAgo]);
    const revenue = async () =>
      Number(/Revenue \$([\d,.]+)/.exec((await page.locator('[data-revenue]').textContent()) ?? '')![1]!.replace(/,/g, ''));
    const revenueBefore = await revenue();

    // a lead two days ago (noon in Tokyo) that went all the way to a paid deposit, and one captured just now
    const paid = await server.pool.query<{ lead_id: string }>(
      "INSERT INTO leads (email, source, created_at) VALUES ($1, 'e2e-funnel', $2) RETURNING lead_id",
      [`funnel-paid-${stamp}@example.com`, `${twoDaysAgo}T12:00:00+09:00`],
    );
    const paidId = paid.rows[0]!.lead_id;
    await seedOutcome(server.pool, paidId, { tier: 'book_call' });
    const diagnostic = await server.pool.query(
      "INSERT INTO diagnostics (lead_id, bank_version, status, completed_at) VALUES ($1, '2.0.0', 'completed', now()) RETURNING id",
      [paidId],
    );
    await server.pool.query(
      "INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version) VALUES ($1, $2, '{}', 'Visionary Firebrand', 'A narrative.', '2.0.0', '1')",
      [diagnostic.rows[0].id, paidId],
    );
    await server.pool.query("INSERT INTO survey_responses (lead_id, answers) VALUES ($1, '{}')", [paidId]);
    await server.pool.query(
      // a live payment: test-mode ones count only with test data included
      "INSERT INTO payment_tracking (payment_intent_id, lead_id, purpose, amount_cents, status, test_mode) VALUES ($1, $2, 'deposit', 25000, 'succeeded', false)",
      [`pi_test_funnel_${stamp}`, paidId],
    );
    await server.pool.query("INSERT INTO leads (email, source) VALUES ($1, 'e2e-funnel')", [`funnel-new-${stamp}@example.com`]);
    await refreshAllLeadFacts(server.pool); // these rows were written past their owners, which keep each lead's summary

    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => funnelStep(page, 'captured')).toBe(before.captured! + 2);
    expect(await chartNumbers(page, [today, twoDaysAgo])).toEqual({
      ...before,
      captured: before.captured! + 2,
      diagnosticDone: before.diagnosticDone! + 1,
      surveyDone: before.surveyDone! + 1,
      book_call: before.book_call! + 1,
      depositsPaid: before.depositsPaid! + 1,
      [today]: before[today]! + 1,
      [twoDaysAgo]: before[twoDaysAgo]! + 1,
    });
    const funnelLabel = await page.getByRole('img', { name: /^Funnel, last 7 days:/ }).getAttribute('aria-label');
    expect(funnelLabel).toContain(`Leads captured ${before.captured! + 2}`);
    expect(funnelLabel).toContain(`Paid ${before.depositsPaid! + 1}`);
    expect(await revenue()).toBe(revenueBefore + 250);
    expect(await page.getByRole('img', { name: new RegExp(`^New leads per day, last 7 days, .* \\(${timeZone} time\\)`) }).count()).toBe(1);

    // a visitor opens the home page: one visit for the tab, whatever it does next
    const visitor = await openPage(browser, MOBILE);
    await visitor.page.goto(server.url);
    // the visit is recorded once the page is idle
    const visitorId = await (await visitor.page.waitForFunction(() => sessionStorage.getItem('hf:visitId'))).jsonValue();
    expect(visitorId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await expect
      .poll(async () => (await server.pool.query('SELECT path FROM site_visits WHERE visitor_id = $1', [visitorId])).rows)
      .toEqual([{ path: '/' }]);
    await visitor.page.goto(`${server.url}/about`);
    await visitor.page.reload();
    await visitor.page.getByRole('heading', { level: 1 }).waitFor();
    expect(await visitor.page.evaluate(() => sessionStorage.getItem('hf:visitId'))).toBe(visitorId);
    expect(visitor.problems.errors).toEqual([]);
    await visitor.context.close();

    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => funnelStep(page, 'visits')).toBe(before.visits! + 1);
    expect((await server.pool.query('SELECT count(*)::int AS n FROM site_visits WHERE visitor_id = $1', [visitorId])).rows[0].n).toBe(1);
    await page.screenshot({ path: `${SHOTS}/overview-funnel-1280.png`, fullPage: true });
    await page.getByRole('region', { name: 'Funnel and new leads' }).screenshot({ path: `${SHOTS}/funnel-1280.png` });

    await page.locator('label', { hasText: 'All time' }).click();
    await page.locator('[data-period="all"]').waitFor();
    expect(await funnelStep(page, 'captured')).toBeGreaterThanOrEqual(before.captured! + 2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the charts’ empty texts, and their own error and retry when the funnel cannot be fetched', async () => {
    const { context, page } = await adminPage(MOBILE);
    const isFunnel = (url: URL) => url.pathname === '/api/admin/overview/funnel';
    const zeros = {
      visits: 0,
      captured: 0,
      diagnosticDone: 0,
      surveyDone: 0,
      tiers: { book_call: 0, homework: 0, nurture: 0 },
      ungraded: 0,
      depositsPaid: 0,
      sessionsBooked: 0,
      revenueCents: 0,
    };
    await page.route(isFunnel, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          period: '30d',
          timeZone: 'UTC',
          includeTest: false,
          from: '2026-01-01',
          to: '2026-01-30',
          funnel: zeros,
          leadsPerDay: { bucket: 'day', bars: [{ start: '2026-01-30', leads: 0 }] },
        }),
      }),
    );
    await page.goto(`${server.url}/admin`);
    await page.getByText('No visits or leads in this period').waitFor();
    await page.getByText('No new leads in this period').waitFor();
    await page.unroute(isFunnel);

    await page.route(isFunnel, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'boom' }),
      }),
    );
    await page.reload();
    await toast(page, 'Error').waitFor();
    const section = page.getByRole('region', { name: 'Funnel and new leads' });
    await section.getByRole('button', { name: 'Try again' }).waitFor();
    // the rest of the overview still works
    await page.getByRole('cell', { name: leadEmail }).waitFor();
    await page.unroute(isFunnel);
    await section.getByRole('button', { name: 'Try again' }).click();
    await section.locator('[data-funnel-table]').waitFor({ state: 'attached' });
    await context.close();
  });

  it('goes to /auth when an admin call answers 401 (the session was lost)', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.route('**/api/admin/data', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 401, error: 'Unauthorized', message: 'Sign in first' }),
      }),
    );
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Messages' }).click();
    await page.waitForURL(`${server.url}/auth?next=%2Fadmin%2Fmessages`);
    await context.close();
  });

  it('collapses the sidebar to icons with ctrl+B, keeps that in a 7-day cookie across a reload, and reaches every screen, focus on its main region', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.url}/admin`);
    const sidebar = page.locator('#admin-sidebar');
    await sidebar.waitFor();
    expect((await sidebar.boundingBox())!.width).toBe(256);
    await page.keyboard.press('Control+b');
    await page.locator('[data-sidebar="collapsed"]').waitFor();
    await page.waitForFunction(() => document.getElementById('admin-sidebar')!.getBoundingClientRect().width === 48);
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state')!;
    expect(cookie.value).toBe('false');
    expect(cookie.path).toBe('/admin');
    const days = (cookie.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7.01);
    // icons only, still named for assistive technology
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Team-chat Monitor' }).isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/collapsed-1280.png` });

    await page.reload();
    await page.locator('[data-sidebar="collapsed"]').waitFor();
    expect((await sidebar.boundingBox())!.width).toBe(48);
    await page.keyboard.press('Meta+b');
    await page.locator('[data-sidebar="expanded"]').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')!.value).toBe('true');

    for (const [label, path] of [
      ['Leads', '/admin/leads'],
      ['Integrations', '/admin/integrations'],
      ['Team-chat Monitor', '/admin/monitor'],
      ['Jobs', '/admin/jobs'],
      ['Machines', '/admin/machines'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: label }).click();
      await page.waitForURL(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1, name: label }).waitFor();
      // the new screen's main region has focus, as after a page load, not the link that led there
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), { message: path }).toBe('admin-main');
    }
    await context.close();
  });

  it('on a phone the sidebar is an 18rem sheet opened by the toggle', async () => {
    const { context, page } = await adminPage(MOBILE);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('cell', { name: leadEmail }).waitFor();
    await page.locator('[data-period="30d"] svg[role="img"]').nth(1).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.screenshot({ path: `${SHOTS}/overview-390.png`, fullPage: true });
    await page.getByRole('region', { name: 'Funnel and new leads' }).screenshot({ path: `${SHOTS}/funnel-390.png` });
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const sheet = page.getByRole('dialog', { name: 'Admin menu' });
    const panel = page.locator('[data-admin-sheet]');
    await panel.waitFor();
    expect((await panel.boundingBox())!.width).toBe(288);
    await page.screenshot({ path: `${SHOTS}/sheet-390.png` });
    await sheet.getByRole('link', { name: 'Messages' }).click();
    await page.waitForURL(`${server.url}/admin/messages`);
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await page.locator(`[data-message="${contactId}"]`).waitFor();
    expect(await sheet.count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/messages-390.png`, fullPage: true });
    await context.close();
  });

  it('lists messages in full, filters them by the search box, and stores the handled switch (rolling back on failure)', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/messages`);
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const grace = page.locator(`[data-message="${contactId}"]`);
    const linus = page.locator(`[data-message="${otherContactId}"]`);
    await grace.waitFor();
    expect(await grace.textContent()).toContain(longMessage.trim());

    const search = page.getByLabel('Search messages');
    for (const query of ['hopper labs', `GRACE-${stamp}`, 'whole leadership team', 'Grace Tester']) {
      await search.fill(query);
      await linus.waitFor({ state: 'detached' });
      expect(await grace.isVisible()).toBe(true);
    }
    await search.fill('workshop');
    await grace.waitFor({ state: 'detached' });
    expect(await linus.isVisible()).toBe(true);
    await search.fill(`nothing-matches-${stamp}`);
    await page.getByText(`No messages match “nothing-matches-${stamp}”`).waitFor();
    await search.fill('');
    await grace.waitFor();

    await page.screenshot({ path: `${SHOTS}/messages-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    const handled = grace.getByRole('switch', { name: /Handled/ });
    expect(await handled.getAttribute('aria-checked')).toBe('false');
    const saved = page.waitForResponse((response) => response.url().endsWith(`/api/admin/contact/${contactId}/handled`));
    await handled.click();
    expect((await saved).status()).toBe(200);
    expect(await handled.getAttribute('aria-checked')).toBe('true');
    const row = await server.pool.query('SELECT handled, handled_at FROM contact_submissions WHERE id = $1', [contactId]);
    expect(row.rows[0].handled).toBe(true);
    expect(row.rows[0].handled_at).not.toBeNull();

    await page.reload();
    await grace.getByRole('switch', { name: /Handled/, checked: true }).waitFor();

    // a failed save is rolled back with the Error toast
    await page.route(`**/api/admin/contact/${contactId}/handled`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'boom' }),
      }),
    );
    await grace.getByRole('switch', { name: /Handled/ }).press('Space');
    await toast(page, 'Error').waitFor();
    await grace.getByRole('switch', { name: /Handled/, checked: true }).waitFor();
    expect((await server.pool.query('SELECT handled FROM contact_submissions WHERE id = $1', [contactId])).rows[0].handled).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reaches the admin from the site by Dashboard, signs out from the top bar to / with the toast, after which /admin goes to /auth', async () => {
    const { context, page } = await openPage(browser, DESKTOP);
    await signInThroughPage(page, server.url, email);
    await page.goto(`${server.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${server.url}/admin`);
    const banner = page.getByRole('banner');
    await banner.getByText(email).waitFor();
    await banner.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/`);
    await toast(page, "You've been successfully signed out.").waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    // the notice is not repeated by a reload
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await toast(page, "You've been successfully signed out.").count()).toBe(0);
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/auth`);
    await context.close();
  });

  /**
   * Signs in, opens /admin, leaves it for another page (a new document), signs out from there and
   * presses Back; returns whether the admin page came back from the back/forward cache.
   */
  async function backAfterSigningOut(options: { keepable: boolean }): Promise<boolean> {
    const cached = await launchBrowser({ backForwardCache: true });
    try {
      const { page } = await openPage(cached, DESKTOP);
      // what the last pageshow said: persisted means the page came back from the back/forward cache
      await page.addInitScript(() => {
        addEventListener('pageshow', (event) => sessionStorage.setItem('restored', String(event.persisted)));
      });
      if (options.keepable) {
        // the admin page as it would be without no-store: a browser may then keep it in the cache
        await page.route(`${server.url}/admin`, async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, headers: { ...response.headers(), 'cache-control': 'no-cache' } });
        });
      }
      await signInThroughPage(page, server.url, email);
      await page.goto(`${server.url}/admin`);
      await page.getByRole('banner').getByText(email).waitFor();
      await page.goto(`${server.url}/about`);
      expect(await page.evaluate(async () => (await fetch('/api/auth/sign-out', { method: 'POST' })).status)).toBe(200);
      // a page restored from the cache fires no load event: wait on the address itself
      await page.goBack({ waitUntil: 'commit' });
      await expect.poll(() => page.url(), { timeout: 10_000 }).toBe(`${server.url}/auth`);
      expect(await page.getByRole('banner').getByText(email).count()).toBe(0);
      return (await page.evaluate(() => sessionStorage.getItem('restored'))) === 'true';
    } finally {
      await cached.close();
    }
  }

  it('keeps the admin pages out of the browser’s caches: Back after signing out elsewhere loads /admin afresh and lands on /auth', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/admin/leads' });
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await server.app.inject({ method: 'GET', url: '/auth' })).headers['cache-control']).toBe('no-store');
    expect((await server.app.inject({ method: 'GET', url: '/about' })).headers['cache-control']).toBe('no-cache');
    expect(await backAfterSigningOut({ keepable: false })).toBe(false);
  });

  it('a page restored from the back/forward cache reads the session before showing anything, and goes to /auth', async () => {
    expect(await backAfterSigningOut({ keepable: true })).toBe(true);
  });
  it('an admin with a generated password must choose their own before the admin area opens', async () => {
    const generated = `admin-e2e-first-${stamp}@example.com`;
    await createAdmin(server.pool, generated, ADMIN_PASSWORD);
    await server.pool.query('UPDATE users SET must_change_password = true WHERE email = $1', [generated]);
    const { context, page, problems } = await openPage(browser, MOBILE);
    // the first sign-in lands on the password change itself
    await signInThroughPage(page, server.url, generated);
    await page.getByRole('heading', { level: 1, name: 'Choose your own password' }).waitFor();
    expect(await page.getByRole('navigation', { name: /admin/i }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/change-password-390.png`, fullPage: true });

    await page.getByLabel('Current password').fill('not the password at all');
    await page.getByLabel('New password', { exact: true }).fill('my own long passphrase');
    await page.getByLabel('Confirm new password').fill('my own long passphrase');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Your current password is not correct.').waitFor();
    expect(
      (await server.pool.query('SELECT must_change_password FROM users WHERE email = $1', [generated])).rows[0].must_change_password,
    ).toBe(true);

    await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await toast(page, 'Password Changed').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(
      (await server.pool.query('SELECT must_change_password FROM users WHERE email = $1', [generated])).rows[0].must_change_password,
    ).toBe(false);
    // the refused wrong password is the one failed request (Chromium logs its 400)
    expect(problems.errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    await context.close();
  });
});
