import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedResultsFlow } from '#test/flows.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { MOBILE, openAdminPage, openPage, signedInAdminState, toast, type StorageState } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

const SHOTS = '/tmp/shots-ops';

describe('the Jobs and Machines screens in a real browser', () => {
  let browser: Browser;
  let server: TestServer;
  let signedIn: StorageState;
  const stamp = Date.now();
  const jobName = `e2e-ops-${stamp}`;
  let jobId: string;
  let flowId: string | undefined;

  const adminPage = (viewport?: { width: number; height: number }) => openAdminPage(browser, signedIn, viewport);

  /** The seeded flow's own visitor, as their browser would send it. */
  const asVisitor = (seeded: { visitorCookie: string }) => ({
    'content-type': 'application/json',
    cookie: `${VISITOR_COOKIE}=${seeded.visitorCookie}`,
  });

  async function flowEvent(seeded: { flowId: string; visitorCookie: string }, type: string) {
    const response = await fetch(`${server.url}/api/flows/${seeded.flowId}/events`, {
      method: 'POST',
      headers: asVisitor(seeded),
      body: JSON.stringify({ event: { type } }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }

  /** A book_call lead whose flow has moved on from its results to the deposit step (two flow events). */
  async function leadAtDeposit() {
    const seeded = await seedResultsFlow(
      server.pool,
      'book_call',
      `ops-live-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
    );
    await flowEvent(seeded, 'CONTINUE');
    await flowEvent(seeded, 'PAY_DEPOSIT');
    return seeded;
  }

  /** A lead at the deposit step: the deposit choice queued its payments job, which waits (no worker runs here). */
  async function leadStartingPayment() {
    const seeded = await leadAtDeposit();
    const job = await server.pool.query<{ id: string }>("SELECT id FROM jobs WHERE flow_id = $1 AND queue = 'payments'", [seeded.flowId]);
    return { ...seeded, paymentJobId: job.rows[0]!.id };
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
    const email = `ops-e2e-${stamp}@example.com`;
    // the slack queue has no worker in the test run, so nothing else picks the retried row up
    const inserted = await server.pool.query<{ id: string }>(
      `INSERT INTO jobs (queue, name, status, attempts, max_attempts, last_error, finished_at, payload)
       VALUES ('slack', $1, 'failed', 3, 3, 'Slack answered 500: internal_error', now(), '{"kind":"event","eventId":"EvOPS1"}') RETURNING id`,
      [jobName],
    );
    jobId = inserted.rows[0]!.id;
    flowId = (
      await server.pool.query<{ id: string }>(
        "INSERT INTO flows (machine, state, snapshot) VALUES ('assessmentFlow', 'processing.grading', '{}') RETURNING id",
      )
    ).rows[0]!.id;
    signedIn = await signedInAdminState(browser, server.url, server.pool, email);
  });

  afterAll(async () => {
    await server?.pool.query('DELETE FROM jobs WHERE name = $1', [jobName]).catch(() => {});
    if (flowId) await server?.pool.query('DELETE FROM flows WHERE id = $1', [flowId]).catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('sends a visitor without a session from /admin/jobs and /admin/machines to /auth', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${server.url}/admin/jobs`);
    await page.waitForURL(`${server.url}/auth?next=%2Fadmin%2Fjobs`);
    await page.goto(`${server.url}/admin/machines`);
    await page.waitForURL(`${server.url}/auth?next=%2Fadmin%2Fmachines`);
    await context.close();
  });

  it('shows the queues and a failed job with its error, and Retry runs it again', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/jobs`);
    await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
    await page.locator('[data-queue="slack"]').waitFor();
    expect(await page.locator('[data-queue]').count()).toBe(8);
    await page.getByRole('combobox', { name: 'Queue' }).selectOption('slack');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
    const row = page.locator(`[data-job="${jobId}"]`);
    await row.waitFor();
    await expect.poll(() => row.locator('[data-error]').textContent()).toBe('Slack answered 500: internal_error');
    expect(await row.textContent()).toContain('3/3');
    await row.getByText('Job data').click();
    expect(JSON.parse((await row.locator('[data-payload]').textContent())!)).toEqual({ kind: 'event', eventId: 'EvOPS1' });

    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/jobs-1280.png`, fullPage: true });

    await row.getByRole('button', { name: /^Retry/ }).click();
    await toast(page, 'Job retried').waitFor();
    await expect
      .poll(async () => (await server.pool.query('SELECT status, attempts, last_error FROM jobs WHERE id = $1', [jobId])).rows[0])
      .toMatchObject({ attempts: 0, last_error: null });
    const status = (await server.pool.query('SELECT status FROM jobs WHERE id = $1', [jobId])).rows[0].status;
    expect(['pending', 'enqueued']).toContain(status);
    // the row no longer offers a retry (it is not failed any more)
    await expect.poll(() => row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('streams job events live, refreshes the counts by itself, and removes a job after confirmation', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/jobs`);
    await page.locator('[data-live="true"]').waitFor();
    expect(await page.getByRole('link', { name: /Open bull-board/ }).getAttribute('href')).toBe('/admin/queues');
    expect(await page.getByRole('link', { name: /Open bull-board/ }).getAttribute('target')).toBe('_blank');
    const enqueued = page.locator('[data-queue="payments"] [data-count="enqueued"]');
    const before = Number(await enqueued.textContent());

    // the deposit choice starts its checkout as a job: added to BullMQ, waiting for a worker
    const { paymentJobId } = await leadStartingPayment();
    const waiting = page.locator(`[data-live-event="waiting"][data-job-id="${paymentJobId}"]`);
    await waiting.waitFor();
    expect(await waiting.textContent()).toContain('payments');
    // no click on Refresh: the job frame reloaded the counts
    await expect.poll(async () => Number(await enqueued.textContent()), { timeout: 5_000 }).toBe(before + 1);

    await page.getByRole('combobox', { name: 'Queue' }).selectOption('payments');
    const row = page.locator(`[data-job="${paymentJobId}"]`);
    await row.getByRole('button', { name: /^Remove/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this job?' });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await server.pool.query('SELECT 1 FROM jobs WHERE id = $1', [paymentJobId])).rowCount).toBe(1);

    await row.getByRole('button', { name: /^Remove/ }).click();
    await dialog.getByRole('button', { name: 'Remove job' }).click();
    await toast(page, 'Job removed').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await server.pool.query('SELECT 1 FROM jobs WHERE id = $1', [paymentJobId])).rowCount).toBe(0);
    // BullMQ's copy went too, and said so on the live stream
    await page.locator(`[data-live-event="removed"][data-job-id="${paymentJobId}"]`).waitFor();

    await page.getByRole('combobox', { name: 'Queue' }).selectOption('');
    // a toast fading out is drawn half transparent, which axe would count as low contrast
    await toast(page, 'Job removed').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/jobs-live-1280.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();

    const phone = await adminPage(MOBILE);
    await phone.page.goto(`${server.url}/admin/jobs`);
    await phone.page.locator('[data-live="true"]').waitFor();
    const another = await leadStartingPayment();
    await phone.page.locator(`[data-live-event="waiting"][data-job-id="${another.paymentJobId}"]`).waitFor();
    expect(
      await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(1);
    expect(await axeViolations(phone.page)).toEqual([]);
    await phone.page.screenshot({ path: `${SHOTS}/jobs-live-390.png`, fullPage: true });
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it("retries a failed job from the lead's page", async () => {
    const seeded = await seedResultsFlow(server.pool, 'homework', `ops-lead-${Date.now()}@example.com`);
    const failed = await server.pool.query<{ id: string }>(
      `INSERT INTO jobs (queue, name, status, attempts, max_attempts, last_error, finished_at, lead_id)
       VALUES ('slack', 'lead-retry', 'failed', 5, 5, 'Slack answered 500', now(), $1) RETURNING id`,
      [seeded.leadId],
    );
    const jobId = failed.rows[0]!.id;
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/leads/${seeded.leadId}`);
    const row = page.locator(`section[aria-labelledby="lead-jobs"] [data-job="${jobId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Slack answered 500');
    await page.locator('section[aria-labelledby="lead-jobs"]').screenshot({ path: `${SHOTS}/lead-jobs.png` });
    await row.getByRole('button', { name: /^Retry/ }).click();
    await toast(page, 'Job retried').waitFor();
    await expect.poll(() => row.getByRole('button', { name: /^Retry/ }).count(), { timeout: 5_000 }).toBe(0);
    expect(await row.textContent()).not.toContain('Slack answered 500');
    expect((await server.pool.query('SELECT status, attempts FROM jobs WHERE id = $1', [jobId])).rows[0]).toMatchObject({ attempts: 0 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens bull-board for an admin, within its CSP', async () => {
    const { context, page, errors } = await adminPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    await page.goto(`${server.url}/admin/queues`);
    for (const queue of ['grading', 'timers']) await page.getByText(queue).first().waitFor();
    // its dashboard, drawn with inline styles, then one queue's page
    await page.getByText('No workers').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/bull-board-1280.png` });
    await page.getByRole('link', { name: 'email', exact: true }).first().click();
    await page.waitForURL(`${server.url}/admin/queues/queue/email**`);
    await page
      .getByText(/completed/i)
      .first()
      .waitFor();
    // only the web fonts it asks Google for are refused (an admin page phones nowhere)
    expect(refused.filter((text) => !text.includes('fonts.googleapis.com'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws the assessment flow with live counts and a table alternative', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/machines`);
    await page.getByRole('heading', { level: 1, name: 'Machines' }).waitFor();
    const flow = page.locator('[data-machine="assessmentFlow"]');
    await flow.waitFor();
    await flow.getByRole('img', { name: /State diagram of assessmentFlow/ }).waitFor();
    for (const state of ['capture.editing', 'diagnostic', 'processing.grading', 'results']) {
      await flow.locator(`[data-state="${state}"]`).waitFor();
    }
    const badge = flow.locator('[data-state="processing.grading"] [data-count]');
    expect(Number(await badge.getAttribute('data-count'))).toBeGreaterThanOrEqual(1);
    expect(await flow.locator('[data-edge]').count()).toBeGreaterThan(10);

    await flow.getByText('States and counts as a table').click();
    const tableRow = flow.getByRole('row', { name: /processing\.grading/ });
    await tableRow.waitFor();
    expect(Number((await tableRow.getByRole('cell').first().textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(1);

    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/machines-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 2800, height: 1600 });
    // for the picture only: let the diagram's ancestors grow to its full width
    await flow.locator('svg[role="img"]').evaluate((svg) => {
      for (let node = svg.parentElement; node; node = node.parentElement)
        Object.assign(node.style, { overflow: 'visible', maxWidth: 'none', width: 'max-content' });
    });
    await flow.locator('svg[role="img"]').screenshot({ path: `${SHOTS}/assessment-flow-diagram.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('redraws the machines as flow events happen, without polling', async () => {
    const { context, page, errors } = await adminPage();
    await page.goto(`${server.url}/admin/machines`);
    await page.locator('[data-live="true"]').waitFor();
    const atDeposit = page.locator('[data-machine="assessmentFlow"] [data-state="payment"] [data-count]');
    await atDeposit.waitFor();
    const before = Number(await atDeposit.getAttribute('data-count'));
    await leadAtDeposit();
    // the fallback poll is 30 s: only the flow frames can bring this in time
    await expect.poll(async () => Number(await atDeposit.getAttribute('data-count')), { timeout: 5_000 }).toBe(before + 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lays both screens out on a phone without page-wide sideways scrolling', async () => {
    const { context, page, errors } = await adminPage(MOBILE);
    for (const screen of ['jobs', 'machines']) {
      await page.goto(`${server.url}/admin/${screen}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page
        .locator(screen === 'jobs' ? '[data-queue]' : '[data-machine]')
        .first()
        .waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, screen).toBeLessThanOrEqual(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/${screen}-390.png`, fullPage: true });
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
