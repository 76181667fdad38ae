import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGradedLead } from '#test/admin-leads-fixtures.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { MOBILE, openAdminPage, openPage, signedInAdminState, toast, type StorageState } from './pages.js';
import { startTestServer, type TestServer } from './server.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';

const SHOTS = '/tmp/shots-leads';

describe('the admin leads screens in a real browser', () => {
  let browser: Browser;
  let server: TestServer;
  let signedIn: StorageState;
  const stamp = Date.now();
  const graded = `leads-e2e-graded-${stamp}@example.com`;
  const other = `leads-e2e-other-${stamp}@example.com`;
  let leadId: string;

  const adminPage = (viewport?: { width: number; height: number }) => openAdminPage(browser, signedIn, viewport);

  async function search(page: Page, text: string) {
    await page.getByLabel('Search leads').fill(text);
    await page.waitForURL((url) => url.searchParams.get('q') === text);
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
    const email = `leads-admin-e2e-${stamp}@example.com`;
    leadId = (await seedGradedLead(server.pool, 'book_call', graded)).leadId;
    await server.pool.query("INSERT INTO leads (email, name, source, tags) VALUES ($1, 'Olga Other', 'community', '{vip}')", [other]);
    await refreshAllLeadFacts(server.pool); // written past lead-service, which keeps each lead's summary
    signedIn = await signedInAdminState(browser, server.url, server.pool, email);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends a visitor without a session to /auth', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${server.url}/admin/leads`);
    await page.waitForURL(`${server.url}/auth?next=%2Fadmin%2Fleads`);
    await context.close();
  });

  it('lists, searches and filters leads, and exports the filtered set', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/leads`);
    await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
    await page.getByRole('link', { name: graded }).waitFor();
    await page.getByRole('link', { name: other }).waitFor();
    const row = page.locator(`[data-lead="${leadId}"]`);
    expect(await row.textContent()).toContain('Book call');

    await search(page, `e2e-graded-${stamp}`);
    await page.getByRole('link', { name: other }).waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);

    await search(page, `leads-e2e-`);
    await page.getByRole('link', { name: other }).waitFor();
    await page.getByLabel('Tier').selectOption('book_call');
    await page.getByRole('link', { name: other }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: graded }).waitFor();
    await page.getByLabel('Tier').selectOption('');
    await page.getByLabel('Tag').fill('vip');
    await page.getByRole('link', { name: graded }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: other }).waitFor();

    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toContain('tag=vip');
    const csv = await page.evaluate(async (url) => (await fetch(url)).text(), href!);
    expect(csv).toContain(other);
    expect(csv).not.toContain(graded);

    await page.getByLabel('Tag').fill('');
    await page.waitForURL((url) => !url.searchParams.has('tag'));
    await page.getByRole('link', { name: graded }).waitFor();

    // a select changed while a typed filter waits to be written: both reach the address
    await page.getByLabel('Tag').fill('vip');
    await page.getByLabel('Tier').selectOption('book_call');
    await page.waitForURL((url) => url.searchParams.get('tag') === 'vip' && url.searchParams.get('tier') === 'book_call');
    await page.getByLabel('Tag').fill('');
    await page.getByLabel('Tier').selectOption('');
    await page.waitForURL((url) => !url.searchParams.has('tag') && !url.searchParams.has('tier'));
    await page.getByRole('link', { name: graded }).waitFor();
    await page.getByRole('button', { name: 'Qualification score' }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'qualification_score');
    // the URL changes before React renders the new header, so wait for the attribute
    await expect.poll(() => page.getByRole('columnheader', { name: 'Qualification score' }).getAttribute('aria-sort')).toBe('descending');
    // the graded lead (78.5) before the ungraded one (no score sorts last)
    const otherId = (await server.pool.query('SELECT lead_id FROM leads WHERE email = $1', [other])).rows[0].lead_id;
    await expect
      .poll(async () => {
        const order = await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-lead')));
        return order.indexOf(leadId) >= 0 && order.indexOf(leadId) < order.indexOf(otherId);
      })
      .toBe(true);

    await page.screenshot({ path: `${SHOTS}/leads-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();

    const mobile = await adminPage(MOBILE);
    await mobile.page.goto(`${server.url}/admin/leads?q=leads-e2e-`);
    await mobile.page.getByRole('link', { name: graded }).waitFor();
    await mobile.page.screenshot({ path: `${SHOTS}/leads-390.png`, fullPage: true });
    await mobile.context.close();
  });

  it("opens a lead's page, replays its journey, adds a note and deletes it after confirming", async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/leads?q=${encodeURIComponent(graded)}`);
    await page.getByRole('link', { name: graded }).click();
    await page.waitForURL(`${server.url}/admin/leads/${leadId}`);
    await page.getByRole('heading', { level: 1, name: 'Test Lead' }).waitFor();
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByText('Ready to invest now.').waitFor();
    await result.getByRole('img', { name: /Radar chart/ }).waitFor();
    await page.getByRole('region', { name: 'Mirror transcript' }).getByText('Whether to promote from within.').waitFor();
    await page.getByRole('region', { name: 'Jobs' }).getByText('SMTP 554: mailbox unavailable').waitFor();
    await page.getByRole('region', { name: 'Payments' }).getByRole('button', { name: 'Refund' }).waitFor();
    const emails = page.getByRole('region', { name: 'Emails' });
    await emails.getByText('Your leadership resources').waitFor();
    await emails.getByText(/^Free resources · to /).waitFor();
    // the email opens to what the lead received: the report is a link in it, and nothing is listed as attached
    await emails.getByText('Read the email').click();
    await emails
      .getByText(/As promised, here are your free resources\.\s+Download Report: https:\/\/coach\.example\.com\/api\/reports\/link/)
      .waitFor();
    expect(await emails.getByText(/^Attached:/).count()).toBe(0);
    // answers read as questions beside answers in words; retired ones keep their id
    const diagnostic = page.getByRole('region', { name: 'Diagnostic answers' });
    await diagnostic.getByText('Everyone on my team could name the three outcomes we are accountable for this quarter.').waitFor();
    await diagnostic.getByText('4 – Agree').waitFor();
    await diagnostic.getByText('b9_retired (question no longer in the diagnostic)').waitFor();
    const survey = page.getByRole('region', { name: 'Survey' });
    await survey.getByText('If we agree it is a fit, when could you start?').waitFor();
    await survey.getByText('I am ready to invest now.').waitFor();
    await survey.getByText('q0_budget (question no longer in the survey)').waitFor();
    expect(await survey.textContent()).not.toContain('ready_now');
    const jobs = page.getByRole('region', { name: 'Jobs' });
    await jobs.getByText('Results email').first().waitFor();
    await jobs.getByRole('button', { name: 'Retry Results email' }).waitFor();

    const journey = page.getByRole('region', { name: 'Journey' });
    const timeline = journey.getByRole('list', { name: 'Journey timeline' });
    expect(await timeline.getByRole('listitem').count()).toBe(6);
    const state = journey.locator('[data-replay-state]');
    expect(await state.textContent()).toBe('Step 0 of 6 → Filling in their name and email');
    await journey.getByRole('button', { name: 'Step forward' }).click();
    expect(await state.textContent()).toBe('Step 1 of 6 · Left their details → Saving their details');
    expect(await timeline.locator('[aria-current="step"]').textContent()).toContain('Left their details');
    await journey.getByRole('button', { name: 'Replay' }).click();
    await journey.getByText('Step 6 of 6 · Assessment graded → Viewing their results').waitFor({ timeout: 10_000 });
    expect(await journey.getByText('(replay reached').count()).toBe(0);

    await page.getByLabel('Add a note').fill(`Spoke on the phone ${stamp}.`);
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('list', { name: 'Notes' }).getByText(`Spoke on the phone ${stamp}.`).waitFor();
    expect((await server.pool.query('SELECT count(*)::int AS n FROM lead_notes WHERE lead_id = $1', [leadId])).rows[0].n).toBe(2);

    await page.screenshot({ path: `${SHOTS}/lead-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Delete lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this lead?' });
    await dialog.waitFor();
    await page.screenshot({ path: `${SHOTS}/lead-delete-dialog-1280.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await server.pool.query('SELECT count(*)::int AS n FROM leads WHERE lead_id = $1', [leadId])).rows[0].n).toBe(1);

    const mobile = await adminPage(MOBILE);
    await mobile.page.goto(`${server.url}/admin/leads/${leadId}`);
    await mobile.page.getByRole('heading', { level: 1, name: 'Test Lead' }).waitFor();
    await mobile.page.screenshot({ path: `${SHOTS}/lead-390.png`, fullPage: true });
    await mobile.context.close();

    await page.getByRole('button', { name: 'Delete lead' }).click();
    await dialog.getByRole('button', { name: 'Delete lead' }).click();
    await page.waitForURL(`${server.url}/admin/leads`);
    await toast(page, 'Lead deleted').waitFor();
    expect((await server.pool.query('SELECT count(*)::int AS n FROM leads WHERE lead_id = $1', [leadId])).rows[0].n).toBe(0);
    expect((await server.pool.query('SELECT count(*)::int AS n FROM lead_notes WHERE lead_id = $1', [leadId])).rows[0].n).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
