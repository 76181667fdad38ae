/*
 * The follow-up emails' pages in Chromium: a resume link opened in a browser that never saw the
 * assessment continues the seeded flow at its screen (and the flow is that browser's from then
 * on); an expired link offers a fresh start; the unsubscribe page asks, then says so. Screenshots
 * at 390 and 1280 px go to SHOTS_DIR (default /tmp/shots-follow-ups).
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFlow } from '#test/flows.js';
import { seedVisitor } from '#test/visitor.js';
import { unsubscribeToken } from '#core/email/unsubscribe.js';
import { resumeLink } from '#core/flows/resume-link.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';
import { modal, modalTitle } from './assessment-harness.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openPage } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-follow-ups';
const WIDTHS = [MOBILE, DESKTOP];

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A captured lead's assessment left at its intro by a browser of its own. */
async function abandonedFlow() {
  const laptop = await seedVisitor(server.pool);
  const email = `resume-${unique()}@example.com`;
  const lead = await createOrUpdateLead(server.pool, { email, name: 'Ada Lovelace' });
  const flowId = await seedFlow(
    server.pool,
    'assessmentFlow',
    [
      { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email },
      { type: 'LEAD_SAVED', leadId: lead.leadId },
    ],
    { leadId: lead.leadId, visitorId: laptop.visitorId },
  );
  return { flowId, leadId: lead.leadId, email, laptop };
}

async function flowRow(flowId: string) {
  const found = await server.pool.query<{ state: string; visitor_id: string }>('SELECT state, visitor_id FROM flows WHERE id = $1', [
    flowId,
  ]);
  return found.rows[0]!;
}

/** No sideways scrolling at this width. */
async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('a resume link', () => {
  it('opened in another browser continues the flow at its screen, and the flow is that browser from then on', async () => {
    const { flowId, laptop } = await abandonedFlow();
    const link = await resumeLink(server.pool, server.url, flowId);
    const { context, page, problems } = await openPage(browser, MOBILE);
    expect((await page.goto(link))?.status()).toBe(200);

    await modalTitle(page).getByText('Assessment Overview').waitFor();
    expect(page.url()).toBe(`${server.url}/`);
    await page.screenshot({ path: `${SHOTS}/resume-opened-390.png` });
    const bound = await flowRow(flowId);
    expect(bound.visitor_id).not.toBe(laptop.visitorId);

    // the phone goes on with the assessment: its event reaches the flow
    await modal(page).getByRole('button', { name: 'Begin the Diagnostic' }).click();
    await modalTitle(page).getByText('Leadership Diagnostic').waitFor();
    // the screen moves as the event is sent; the server applies it a moment later
    await expect.poll(async () => (await flowRow(flowId)).state).toMatch(/^diagnostic/);
    const events = await server.pool.query("SELECT origin FROM flow_events WHERE flow_id = $1 AND type = 'START_DIAGNOSTIC'", [flowId]);
    expect(events.rows).toEqual([{ origin: 'client' }]);

    // a reload keeps this tab on the same flow
    await page.reload();
    await page.getByRole('button', { name: 'Take the Free Assessment' }).first().click();
    await modalTitle(page).getByText('Leadership Diagnostic').waitFor();
    expect((await flowRow(flowId)).visitor_id).toBe(bound.visitor_id);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('that has expired says so, opens nothing by itself, and starts a fresh assessment on request', async () => {
    const { flowId, laptop } = await abandonedFlow();
    const link = await resumeLink(server.pool, server.url, flowId, new Date(Date.now() - 8 * 24 * 60 * 60 * 1000));
    for (const viewport of WIDTHS) {
      const { context, page } = await openPage(browser, viewport);
      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: 'This link has expired' }).waitFor();
      expect(await modal(page).count()).toBe(0);
      await fitsWidth(page, viewport.width);
      await page.screenshot({ path: `${SHOTS}/resume-expired-${viewport.width}.png`, fullPage: true });
      if (viewport === DESKTOP) expect(await axeViolations(page)).toEqual([]);

      // the token is not taken for a personal link: the new flow starts without it
      const starts: string[] = [];
      page.on('request', (request) => request.url().endsWith('/api/flows') && starts.push(request.postData() ?? ''));
      await page.getByRole('button', { name: 'Start the Assessment' }).click();
      await modalTitle(page).getByText('Welcome').waitFor();
      expect(page.url()).toBe(`${server.url}/`);
      expect(starts).toHaveLength(1);
      expect(JSON.parse(starts[0]!)).not.toHaveProperty('token');
      await context.close();
    }
    expect((await flowRow(flowId)).visitor_id).toBe(laptop.visitorId);
  });

  it('that was tampered with is refused, with the same offer to start again', async () => {
    const { flowId } = await abandonedFlow();
    const { context, page } = await openPage(browser, MOBILE);
    await page.goto(`${server.url}/resume?token=${flowId}`);
    await page.getByRole('heading', { level: 1, name: 'This link does not work' }).waitFor();
    await page.getByRole('button', { name: 'Start the Assessment' }).waitFor();
    await context.close();
  });
});

describe('the unsubscribe page', () => {
  it('asks first, then unsubscribes the address and says so', async () => {
    for (const viewport of WIDTHS) {
      const { email, leadId } = await abandonedFlow();
      const token = await unsubscribeToken(server.pool, leadId);
      const { context, page, problems } = await openPage(browser, viewport);
      expect((await page.goto(`${server.url}/unsubscribe?token=${token}`))?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Unsubscribe from reminders' }).waitFor();
      expect(await modal(page).count()).toBe(0);
      await fitsWidth(page, viewport.width);
      await page.screenshot({ path: `${SHOTS}/unsubscribe-${viewport.width}.png`, fullPage: true });
      const rows = () => server.pool.query('SELECT how FROM email_unsubscribes WHERE email = $1', [email]);
      expect((await rows()).rows).toEqual([]);

      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await page.getByRole('heading', { level: 1, name: "You're unsubscribed" }).waitFor();
      await fitsWidth(page, viewport.width);
      await page.screenshot({ path: `${SHOTS}/unsubscribed-${viewport.width}.png`, fullPage: true });
      if (viewport === DESKTOP) expect(await axeViolations(page)).toEqual([]);
      expect((await rows()).rows).toEqual([{ how: 'page' }]);
      expect(problems.errors).toEqual([]);
      await context.close();
    }
  });

  it('says when its link does not work', async () => {
    const { context, page } = await openPage(browser, MOBILE);
    await page.goto(`${server.url}/unsubscribe?token=not-a-token`);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { level: 1, name: 'This unsubscribe link does not work' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/unsubscribe-invalid-390.png`, fullPage: true });
    await context.close();
  });
});
