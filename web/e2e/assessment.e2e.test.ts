import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedResultsFlow } from '../../test/flows.js';
import { startWorkers } from '../../test/worker-harness.js';
import { gradingProcessor } from '../../workers/processors/grading.js';
import { backdateDiagnostics, modal, modalTitle, openAssessment, postedEvent, startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { seriousAxeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openPage, toast } from './pages.js';
import { WEB_ROOT } from './server.js';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-modal';
mkdirSync(SHOTS, { recursive: true });

let server: AssessmentServer;
let browser: Browser;

/** The booking page the coach saved in Integrations; the deposit's next step links to it. */
const BOOKING_URL = 'https://cal.example.com/coach/strategy-session';

beforeAll(async () => {
  server = await startAssessmentServer();
  await server.pool.query(
    "INSERT INTO integration_settings (key, enabled, configured, value) VALUES ('scheduling', true, true, $1) ON CONFLICT (key) DO UPDATE SET value = $1",
    [BOOKING_URL],
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/**
 * Screenshots of the current modal step (the dialog's body scrolled through, a picture per
 * screenful, then back to the top); axe findings of serious or critical impact are collected.
 */
async function capture(page: Page, name: string, width: number, axe: string[]) {
  const body = modal(page).locator('[data-step]');
  const { scrollHeight, clientHeight } = await body.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
  const parts = Math.min(4, Math.ceil(scrollHeight / Math.max(1, clientHeight - 60)));
  for (let part = 0; part < parts; part++) {
    await body.evaluate((el, top) => el.scrollTo({ top }), part * (clientHeight - 60));
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}${part ? `-${part + 1}` : ''}.png`) });
  }
  await body.evaluate((el) => el.scrollTo({ top: 0 }));
  for (const violation of await seriousAxeViolations(page)) axe.push(`${name}: ${violation.id} ${violation.help} ${violation.targets.join(', ')}`);
}

async function captureFirst(page: Page, url: string) {
  await openAssessment(page, url);
  await expect(modalTitle(page).textContent()).resolves.toBe('Welcome');
}

/** Capture and intro: the flow standing at the diagnostic's first question. */
async function startDiagnostic(page: Page, email = uniqueEmail('visitor')) {
  await captureFirst(page, server.url);
  const dialog = modal(page);
  await dialog.getByLabel('Name').fill('Alex Morgan');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Start My Assessment' }).click();
  await dialog.getByRole('button', { name: 'Begin the Diagnostic' }).click();
  await dialog.locator('[data-diagnostic-screen]').waitFor();
  return email;
}

/** The diagnostic's answers as the server holds them (the open diagnostic flow of this test). */
async function serverDiagnostic(flowId: string) {
  const found = await server.pool.query("SELECT state, snapshot->'context' AS context FROM flows WHERE id = $1", [flowId]);
  return found.rows[0] as { state: string; context: { index: number; answers: Record<string, { value: unknown; timedOut?: boolean; responseTime: number }> } };
}

/** The id of the diagnostic flow this tab is running (kept in sessionStorage). */
async function diagnosticFlowId(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i)!;
      if (/^hf:flow:child:.*:diagnostic:/.test(key)) return sessionStorage.getItem(key)!;
    }
    throw new Error('no diagnostic flow in this tab');
  });
}

const heading = (page: Page) => modal(page).locator('[data-screen-heading]').textContent();

/** The diagnostic screen's progress text, e.g. '5 of 22'. */
async function progress(page: Page): Promise<string> {
  return (await modal(page).getByRole('progressbar').getAttribute('aria-valuetext')) ?? '';
}

/**
 * Answers diagnostic screens until `stopAt` (a progress text) or the survey: likert by number
 * keys (varied, never a straight line), the ranking moved by keyboard, vignettes by their first
 * option and confidence 4. Every screen is backdated first, so the server sees considered answers.
 */
async function answerDiagnostic(page: Page, options: { stopAt?: string; shots?: (name: string) => Promise<void>; rushed?: boolean } = {}) {
  const seen = new Set<string>();
  for (let step = 0; step < 60; step++) {
    // a diagnostic screen, or the next step of the flow
    await page.waitForFunction(() => document.querySelector('[role="dialog"] h2')?.textContent !== 'Leadership Diagnostic' || document.querySelector('[data-diagnostic-screen]'));
    if ((await modalTitle(page).textContent()) !== 'Leadership Diagnostic') return;
    const dialog = modal(page);
    const at = await progress(page);
    const screenBefore = await dialog.locator('[data-diagnostic-screen]').getAttribute('data-diagnostic-screen');
    if (options.stopAt && at === options.stopAt) return;
    if (!options.rushed) await backdateDiagnostics(server.pool);
    const n = Number(at.split(' of ')[0]);
    if (await dialog.getByText('Timed Questions Ahead').isVisible()) {
      if (!seen.has('interstitial')) await options.shots?.('diagnostic-timed-ahead');
      seen.add('interstitial');
      await postedEvent(page, () => dialog.getByRole('button', { name: 'Start Timed Questions' }).click());
    } else if (await dialog.getByRole('button', { name: 'Confirm Ranking' }).isVisible()) {
      await options.shots?.('diagnostic-ranking');
      // keyboard reordering (dnd-kit): the first priority moves one place down
      const first = dialog.locator('[data-ranking-item] [aria-roledescription="sortable"]').first();
      await first.focus();
      await postedEvent(page, async () => {
        // at a person's pace: dnd-kit measures the list once an item is picked up
        await page.keyboard.press('Space');
        await page.waitForTimeout(200);
        await page.keyboard.press('ArrowDown');
        await page.waitForTimeout(300);
        await page.keyboard.press('Space');
      });
      await expect(dialog.locator('[data-ranking-item]').first().getAttribute('data-ranking-item')).resolves.toBe('results');
      if (!options.rushed) await backdateDiagnostics(server.pool);
      await postedEvent(page, () => dialog.getByRole('button', { name: 'Confirm Ranking' }).click());
    } else if (await dialog.getByRole('timer').isVisible()) {
      if (!seen.has('vignette')) await options.shots?.('diagnostic-vignette');
      seen.add('vignette');
      await postedEvent(page, () => dialog.getByRole('group', { name: 'Your choice' }).getByRole('button').first().click());
      await dialog.getByRole('heading', { name: 'How confident are you in that choice?' }).waitFor();
      if (!seen.has('confidence')) await options.shots?.('diagnostic-confidence');
      seen.add('confidence');
      await postedEvent(page, () => page.keyboard.press('4'));
    } else {
      if (!seen.has('likert')) await options.shots?.('diagnostic-likert');
      seen.add('likert');
      await postedEvent(page, () => page.keyboard.press(String([3, 2, 3, 3][(n - 1) % 4])));
    }
    // the next screen (or the end of the diagnostic)
    await page.waitForFunction((before) => document.querySelector('[data-diagnostic-screen]')?.getAttribute('data-diagnostic-screen') !== before, screenBefore);
  }
  throw new Error('the diagnostic did not end');
}

async function answerSurvey(page: Page, choices: string[]) {
  const dialog = modal(page);
  for (const label of choices) await dialog.getByText(label, { exact: true }).click();
  await dialog.getByLabel(/Imagine we have worked together for a year/).fill('A team that decides well without me in the room.');
}

const HOMEWORK = ['I am ready to invest with a payment plan.', 'Within the next 30 days.', 'Important: it has to be solved this year.', 'I want practical tools I can use this week.'];
const NURTURE = ['I need a few months to secure the budget.', 'Not for at least 3 months.', 'Exploring: I am more curious than concerned.', 'I am not sure coaching works, but I am willing to find out.'];
const BOOK_CALL = ['I am ready to invest now.', 'Immediately.', 'Critical: it is costing us people, results or my health right now.', 'I want to be challenged, even when it is uncomfortable.'];

describe('the assessment modal in a real browser', () => {
  for (const viewport of [DESKTOP, MOBILE]) {
    it(`runs capture to a booked strategy session (book_call) at ${viewport.width} px, every step screenshotted and checked with axe`, async () => {
      await server.workers();
      const { context, page, problems } = await openPage(browser, viewport);
      const axe: string[] = [];
      const shot = (name: string) => capture(page, name, viewport.width, axe);
      try {
        await captureFirst(page, server.url);
        const dialog = modal(page);
        const start = dialog.getByRole('button', { name: 'Start My Assessment' });
        await expect(start.isDisabled()).resolves.toBe(true);
        await dialog.getByLabel('Name').fill('Morgan Reyes');
        await expect(start.isDisabled()).resolves.toBe(true);
        const email = uniqueEmail('journey');
        await dialog.getByLabel('Email').fill(email);
        await expect(start.isDisabled()).resolves.toBe(false);
        await shot('capture');
        await start.click();

        await modalTitle(page).filter({ hasText: 'Assessment Overview' }).waitFor();
        await expect(dialog.textContent()).resolves.toContain('8-12 minutes');
        await expect(dialog.textContent()).resolves.toContain('180 seconds in total');
        await shot('intro');
        await dialog.getByRole('button', { name: 'Begin the Diagnostic' }).click();

        await modalTitle(page).filter({ hasText: 'Leadership Diagnostic' }).waitFor();
        await dialog.getByRole('progressbar').waitFor();
        await expect(progress(page)).resolves.toBe('1 of 22');
        await answerDiagnostic(page, { shots: shot });

        await modalTitle(page).filter({ hasText: 'Qualification Survey' }).waitFor();
        const submit = dialog.getByRole('button', { name: 'See My Results' });
        await expect(submit.isDisabled()).resolves.toBe(true);
        await answerSurvey(page, BOOK_CALL);
        await shot('survey');
        await expect(submit.isDisabled()).resolves.toBe(false);
        await submit.click();

        await modalTitle(page).filter({ hasText: 'Analyzing Your Responses' }).waitFor();
        await expect(dialog.textContent()).resolves.toContain('up to 3 minutes');
        await shot('processing');

        await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor({ timeout: 30_000 });
        await dialog.getByTestId('archetype').waitFor();
        await expect(dialog.locator('svg[role="img"]').count()).resolves.toBe(1);
        await shot('results');
        const stored = await page.evaluate(() => ({ tier: localStorage.getItem('hf:tier'), done: localStorage.getItem('hf:assessment_completed') }));
        expect(stored).toEqual({ tier: 'book_call', done: 'true' });

        await dialog.getByRole('button', { name: 'Book Your Strategy Session' }).click();
        await modalTitle(page).filter({ hasText: 'Book Your Strategy Session' }).waitFor();
        await shot('yes-flow');
        await dialog.getByRole('button', { name: /Pay \$250 Refundable Deposit/ }).click();

        await modalTitle(page).filter({ hasText: 'Deposit Confirmed' }).waitFor({ timeout: 15_000 });
        await shot('payment-success');
        const booking = dialog.getByRole('link', { name: /Book your 45-minute strategy session/ });
        const href = new URL((await booking.getAttribute('href'))!);
        expect(`${href.origin}${href.pathname}`).toBe(BOOKING_URL);
        expect(href.searchParams.get('email')).toBe(email);
        expect(href.searchParams.get('name')).toBe('Morgan Reyes');
        expect(await page.evaluate(() => localStorage.getItem('payment_type'))).toBe('deposit');

        expect(axe).toEqual([]);
        expect(problems.errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('a personal token link opens the assessment with the visitor known, skipping capture', async () => {
    const token = `tok-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
    const email = uniqueEmail('token');
    await server.pool.query("INSERT INTO lead_tokens (token, email, name, source, expires_at) VALUES ($1, $2, 'Jordan Lee', 'token', now() + interval '1 day')", [token, email]);
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      await page.goto(`${server.url}/?token=${token}`);
      await modalTitle(page).filter({ hasText: 'Leadership Diagnostic' }).waitFor();
      await modal(page).locator('[data-diagnostic-screen]').waitFor();
      const flowId = await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:assessment'));
      const flow = await server.pool.query("SELECT snapshot->'context'->'session' AS session FROM flows WHERE id = $1", [flowId]);
      expect(flow.rows[0].session).toMatchObject({ source: 'token', email, name: 'Jordan Lee', leadToken: token });
      expect(flow.rows[0].session.leadId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('hf:leadSession') ?? 'null'))).toMatchObject({ email, source: 'token' });
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is a proper dialog: opened from the keyboard, focus trapped, Esc closes it and focus returns to the opener', async () => {
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      await page.goto(server.url);
      const opener = page.getByRole('button', { name: 'Take the Free Assessment' }).first();
      await opener.focus();
      await page.keyboard.press('Enter');
      await modalTitle(page).filter({ hasText: 'Welcome' }).waitFor();
      await modal(page).getByLabel('Name').waitFor();
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await modalTitle(page).waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement?.textContent === 'Take the Free Assessment');
      expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a completed assessment stored in the browser opens as completed results, and its next step continues the server flow', async () => {
    const seeded = await seedResultsFlow(server.pool, 'homework');
    const flow = await server.pool.query("SELECT snapshot->'context'->'result' AS result FROM flows WHERE id = $1", [seeded.flowId]);
    const { context, page, problems } = await openPage(browser, MOBILE);
    try {
      await page.goto(server.url);
      // testing mode (on by default on a local host) would clear the stored result on open
      await page.evaluate(
        ({ result, flowId }) => {
          localStorage.setItem('enableTestingMode', 'false');
          localStorage.setItem('hf:assessment_completed', 'true');
          localStorage.setItem('hf:tier', 'homework');
          localStorage.setItem('hf:assessment_data', JSON.stringify({ result, tier: 'homework', flowId, completedAt: '2025-03-01T10:00:00.000Z' }));
        },
        { result: flow.rows[0].result, flowId: seeded.flowId },
      );
      await openAssessment(page, server.url);
      await modalTitle(page).filter({ hasText: 'Welcome Back' }).waitFor();
      await modal(page).getByText('Welcome back. These are the results').waitFor();
      await capture(page, 'completed-results', MOBILE.width, []);
      await modal(page).getByRole('button', { name: 'See Your Options' }).click();
      await modalTitle(page).filter({ hasText: 'Choose Your Next Step' }).waitFor();
      await page.waitForFunction(async (id) => (await (await fetch(`/api/flows/${id}`)).json()).state === 'maybe_flow', seeded.flowId);
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when the server's grading fails, the browser grades the answers itself, says so, and sends them again", async () => {
    await startWorkers(server.pool, server.config, ['grading', 'timers'], {
      grading: { ...gradingProcessor, process: async () => { throw new UnrecoverableError('the grading store is not answering'); } },
    });
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      const email = await startDiagnostic(page);
      await answerDiagnostic(page);
      await answerSurvey(page, HOMEWORK);
      await modal(page).getByRole('button', { name: 'See My Results' }).click();
      await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor({ timeout: 30_000 });
      await toast(page, 'Results calculated locally due to connectivity issues.').waitFor();
      await modal(page).getByText('Results calculated locally due to connectivity issues.').waitFor();
      await modal(page).getByText('Assessment Complete').first().waitFor();
      // the browser's own grading, not the canned result the server fell back to
      const archetype = await modal(page).getByTestId('archetype').textContent();
      expect(archetype).not.toBe('Emerging Leader');
      await capture(page, 'results-local', DESKTOP.width, []);
      const lead = await server.pool.query('SELECT lead_id FROM leads WHERE email = $1', [email]);
      const resubmitted = async () =>
        (await server.pool.query("SELECT count(*)::int AS n FROM jobs WHERE queue = 'grading' AND flow_id IS NULL AND lead_id = $1", [lead.rows[0].lead_id])).rows[0].n;
      for (let i = 0; i < 50 && (await resubmitted()) === 0; i++) await page.waitForTimeout(100);
      expect(await resubmitted()).toBe(1);
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('when the server cannot be reached at the survey, the browser grades locally, then the server catches up and its result is shown', async () => {
    await server.workers(['grading', 'timers']);
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      await startDiagnostic(page);
      await answerDiagnostic(page);
      await answerSurvey(page, HOMEWORK);
      // the flow API stops answering: the survey cannot be posted
      await page.route('**/api/flows/*/events', (route) => route.abort('connectionrefused'));
      await modal(page).getByRole('button', { name: 'See My Results' }).click();
      await modalTitle(page).filter({ hasText: 'Analyzing Your Responses' }).waitFor();
      await modal(page).getByText('The connection dropped.').waitFor();
      await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor({ timeout: 20_000 });
      await modal(page).getByText('Results calculated locally due to connectivity issues.').waitFor();
      // the next step needs the server
      await expect(modal(page).getByRole('button', { name: 'See Your Options' }).isDisabled()).resolves.toBe(true);
      await capture(page, 'results-offline', DESKTOP.width, []);

      // back online: the survey goes through, the server grades, and its result replaces the local one
      await page.unroute('**/api/flows/*/events');
      await modal(page).getByRole('button', { name: 'See Your Options' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
      await modal(page).getByText('Results calculated locally due to connectivity issues.').waitFor({ state: 'detached' });
      const flowId = await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:assessment'));
      const stored = await server.pool.query('SELECT tier FROM assessment_results WHERE flow_id = $1', [flowId]);
      expect(stored.rows).toEqual([{ tier: 'homework' }]);
      expect(problems.errors.filter((error) => !error.includes('Failed to load resource'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a reload in the middle of the diagnostic, and a second tab, resume the same flow at the same question', async () => {
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      await startDiagnostic(page);
      await answerDiagnostic(page, { stopAt: '6 of 22' });
      const question = await heading(page);
      const flowId = await diagnosticFlowId(page);
      expect((await serverDiagnostic(flowId)).context.index).toBe(5);

      await page.reload();
      await openAssessment(page, server.url);
      await modal(page).locator('[data-diagnostic-screen]').waitFor();
      await expect(modalTitle(page).textContent()).resolves.toBe('Leadership Diagnostic');
      await expect(progress(page)).resolves.toBe('6 of 22');
      await expect(heading(page)).resolves.toBe(question);
      expect(await diagnosticFlowId(page)).toBe(flowId);

      // a second tab (same browser, its own sessionStorage) picks up the same flow and question
      const second = await context.newPage();
      await openAssessment(second, server.url);
      await modal(second).locator('[data-diagnostic-screen]').waitFor();
      await expect(progress(second)).resolves.toBe('6 of 22');
      await expect(heading(second)).resolves.toBe(question);

      // an answer in one tab moves the other along (pushed)
      await backdateDiagnostics(server.pool);
      await postedEvent(page, () => page.keyboard.press('4'));
      await second.waitForFunction(() => document.querySelector('[role="dialog"] [role="progressbar"]')?.getAttribute('aria-valuetext') === '7 of 22');
      await expect(heading(second)).resolves.toBe(await heading(page));
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a timed question's countdown runs out and the first option is recorded for the visitor (TIME_UP)", async () => {
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      await page.clock.install();
      await startDiagnostic(page);
      await answerDiagnostic(page, { stopAt: '19 of 22' });
      await modal(page).getByText('Timed Questions Ahead').waitFor();
      await postedEvent(page, () => modal(page).getByRole('button', { name: 'Start Timed Questions' }).click());
      const timer = modal(page).getByRole('timer');
      await expect(timer.textContent()).resolves.toBe('0:50');
      await page.clock.fastForward(20_000);
      await expect(timer.textContent()).resolves.toBe('0:30');
      await expect(modal(page).locator('[aria-live="polite"]').filter({ hasText: '30 seconds left' }).count()).resolves.toBe(1);
      await capture(page, 'diagnostic-countdown', DESKTOP.width, []);

      // the clock runs out: the browser sends TIME_UP and moves on without a confidence question
      await postedEvent(page, () => page.clock.fastForward(31_000));
      await page.waitForFunction(() => document.querySelector('[role="dialog"] [role="progressbar"]')?.getAttribute('aria-valuetext') === '20 of 22');
      await expect(timer.textContent()).resolves.toBe('0:45');
      const diagnostic = await serverDiagnostic(await diagnosticFlowId(page));
      expect(diagnostic.context.answers.vig_dc).toMatchObject({ type: 'vignette', value: 'dc_partial', timedOut: true, responseTime: 50_000 });
      expect(diagnostic.context.index).toBe(19);
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers rushed through are caught as gaming; Retake Assessment starts the diagnostic again', async () => {
    await server.workers(['grading', 'timers']);
    const { context, page, problems } = await openPage(browser, MOBILE);
    try {
      await startDiagnostic(page);
      const firstDiagnostic = await diagnosticFlowId(page);
      await answerDiagnostic(page, { rushed: true });
      await modalTitle(page).filter({ hasText: 'Qualification Survey' }).waitFor();
      await answerSurvey(page, BOOK_CALL);
      await modal(page).getByRole('button', { name: 'See My Results' }).click();
      await modalTitle(page).filter({ hasText: "Let's Take That Again" }).waitFor({ timeout: 30_000 });
      await modal(page).getByText('Please take your time to answer thoughtfully. The assessment requires more consideration.').waitFor();
      await capture(page, 'gaming-detected', MOBILE.width, []);
      await modal(page).getByRole('button', { name: 'Retake Assessment' }).click();
      await modalTitle(page).filter({ hasText: 'Leadership Diagnostic' }).waitFor();
      await modal(page).locator('[data-diagnostic-screen]').waitFor();
      await expect(progress(page)).resolves.toBe('1 of 22');
      expect(await diagnosticFlowId(page)).not.toBe(firstDiagnostic);
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a homework lead chooses free resources, and a nurture lead is offered the community', async () => {
    await server.workers(['grading', 'timers', 'homework', 'email']);
    for (const [tier, survey] of [['homework', HOMEWORK], ['nurture', NURTURE]] as const) {
      const { context, page, problems } = await openPage(browser, tier === 'homework' ? DESKTOP : MOBILE);
      const width = tier === 'homework' ? DESKTOP.width : MOBILE.width;
      context.on('page', (popup) => void popup.close());
      try {
        await startDiagnostic(page);
        await answerDiagnostic(page);
        await answerSurvey(page, survey);
        await modal(page).getByRole('button', { name: 'See My Results' }).click();
        await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor({ timeout: 30_000 });
        expect(await page.evaluate(() => localStorage.getItem('hf:tier'))).toBe(tier);
        if (tier === 'homework') {
          await modal(page).getByRole('button', { name: 'See Your Options' }).click();
          await modalTitle(page).filter({ hasText: 'Choose Your Next Step' }).waitFor();
          await capture(page, 'maybe-flow', width, []);
          await modal(page).getByRole('button', { name: 'Back to Results' }).click();
          await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor();
          await modal(page).getByRole('button', { name: 'See Your Options' }).click();
          await modal(page).getByRole('button', { name: 'Send Me Free Resources' }).click();
          await modal(page).getByText('Check your inbox').waitFor({ timeout: 30_000 });
          // the free resources went out as an email: in the outbox (recorded, with no SMTP here)
          const emails = await server.pool.query<{ status: string }>("SELECT status FROM email_outbox WHERE kind = 'free_resources'");
          expect(emails.rows.map((row) => row.status)).toEqual([expect.stringMatching(/^(recorded|sent)$/)]);
          await capture(page, 'homework-sent', width, []);
        } else {
          await modal(page).getByRole('button', { name: 'Explore Free Resources' }).click();
          await modalTitle(page).filter({ hasText: 'Join the Community' }).waitFor();
          await capture(page, 'no-flow', width, []);
          await modal(page).getByRole('link', { name: /Join the Free Community/ }).click();
          await modal(page).getByText('Welcome aboard').waitFor();
        }
        expect(problems.errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('the Decision Mirror: five exchanges on the server mirror flow, then on to the diagnostic', async () => {
    await server.workers(['mirror', 'timers']);
    const { context, page, problems } = await openPage(browser, MOBILE);
    try {
      await openAssessment(page, server.url, 'Try the Decision Mirror');
      const dialog = modal(page);
      await dialog.getByLabel('Name').fill('Sam Rivera');
      await dialog.getByLabel('Email').fill(uniqueEmail('mirror'));
      await dialog.getByRole('button', { name: 'Start the Mirror' }).click();
      await modalTitle(page).filter({ hasText: 'Decision Mirror' }).waitFor();
      await dialog.getByText('0/5 exchanges').waitFor();
      const input = dialog.getByLabel('Your message');
      await expect(dialog.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
      await input.fill('   ');
      await expect(dialog.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
      await dialog.getByLabel('Save this session (optional)').check();
      const lines = [
        'Whether to promote my strongest engineer to lead the team.',
        'I worry she will stop doing the work she loves, and I will lose my best builder.',
        'I have not asked her what she wants, honestly.',
        'I think I am protecting myself from a hard conversation.',
        'I will ask her this week and listen before deciding.',
      ];
      for (const [index, line] of lines.entries()) {
        await input.fill(line);
        await input.press('Enter');
        await dialog.getByText(index === lines.length - 1 ? 'Complete' : `${index + 1}/5 exchanges`, { exact: true }).waitFor({ timeout: 20_000 });
        if (index === 1) await capture(page, 'mirror', MOBILE.width, []);
      }
      await capture(page, 'mirror-complete', MOBILE.width, []);
      await dialog.getByRole('button', { name: 'Continue to the Diagnostic' }).click();
      await modalTitle(page).filter({ hasText: 'Leadership Diagnostic' }).waitFor();
      const flowId = await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:mirror'));
      const flow = await server.pool.query("SELECT state, snapshot->'context'->'mirrorChat' AS chat FROM flows WHERE id = $1", [flowId]);
      expect(flow.rows[0].state).toBe('diagnostic');
      expect(flow.rows[0].chat).toHaveLength(11);
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the production build', () => {
  it('does not contain the Stately inspector (dev builds only, with ?inspect)', () => {
    const assets = path.join(WEB_ROOT, 'assets');
    const scripts = readdirSync(assets).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const withInspector = scripts.filter((file) => /xstateinspector|createBrowserInspector|@statelyai/.test(readFileSync(path.join(assets, file), 'utf8')));
    expect(withInspector).toEqual([]);
  });
});
