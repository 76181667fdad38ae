import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startFakeStripe } from '#test/fake-stripe.js';
import { seedResultsFlow } from '#test/flows.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { promoteTimers } from '#test/journey.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { gradingProcessor } from '#workers/processors/grading.js';
import {
  answerSurvey,
  backdateDiagnostics,
  BOOK_CALL,
  HOMEWORK,
  modal,
  modalTitle,
  NURTURE,
  openAssessment,
  postedEvent,
  startAssessmentServer,
  type AssessmentServer,
} from './assessment-harness.js';
import { axeViolations } from './axe.js';
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
 * screenful, then back to the top); axe findings of any impact are collected.
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
  for (const violation of await axeViolations(page)) axe.push(`${name}: ${violation.id} ${violation.help} ${violation.targets.join(', ')}`);
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
  return found.rows[0] as {
    state: string;
    context: { index: number; answers: Record<string, { value: unknown; timedOut?: boolean; responseTime: number }> };
  };
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

/** The tier the grading job stored for this tab's assessment flow. */
async function storedTier(page: Page): Promise<string | undefined> {
  const flowId = await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:assessment'));
  const stored = await server.pool.query<{ tier: string }>('SELECT tier FROM assessment_results WHERE flow_id = $1', [flowId]);
  return stored.rows[0]?.tier;
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
    await page.waitForFunction(
      () =>
        document.querySelector('[role="dialog"] h2')?.textContent !== 'Leadership Diagnostic' ||
        document.querySelector('[data-diagnostic-screen]'),
    );
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
      // as a keyboard user does: pick the item up and hear it said (the live region's words), move
      // it and hear where it is, then drop it. A key pressed while the screen is still settling
      // (the server's copy adopted) may not pick it up: then the user, hearing nothing, presses again
      const said = (words: RegExp) => page.getByText(words);
      const pickedUp = said(/^Picked up .+, in position 1 of 5\.$/);
      for (let attempt = 0; attempt < 3 && (await pickedUp.count()) === 0; attempt++) {
        await first.focus();
        await page.keyboard.press('Space');
        await pickedUp.waitFor({ state: 'attached', timeout: 2_000 }).catch(() => {});
      }
      await page.keyboard.press('ArrowDown');
      await said(/ is over position 2 of 5\.$/).waitFor({ state: 'attached' });
      await postedEvent(page, () => page.keyboard.press('Space'));
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
    await page.waitForFunction(
      (before) => document.querySelector('[data-diagnostic-screen]')?.getAttribute('data-diagnostic-screen') !== before,
      screenBefore,
    );
  }
  throw new Error('the diagnostic did not end');
}

describe('the assessment modal in a real browser', () => {
  for (const viewport of [DESKTOP, MOBILE]) {
    // the whole journey, a screenshot and an axe scan at every step: past the default 60 s on a busy machine
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

        // the notice stays only until a second after grading: its title and text are looked for in
        // one wait, which a loaded machine cannot split across the change to the results (the
        // dialog's own element has no box of its own, so it is waited for in the page, not on screen)
        await dialog
          .filter({ has: page.locator('h2', { hasText: 'Analyzing Your Responses' }) })
          .filter({ hasText: 'up to 3 minutes' })
          .waitFor({ state: 'attached' });
        await shot('processing');

        await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor({ timeout: 30_000 });
        await dialog.getByTestId('archetype').waitFor();
        await expect(dialog.locator('svg[role="img"]').count()).resolves.toBe(1);
        await shot('results');
        // stored by the grading job, not by the browser
        expect(await storedTier(page)).toBe('book_call');
        expect(await page.evaluate(() => localStorage.getItem('hf:assessment_data'))).toBeNull();
        // the report, as the results page offers it: the flow's PDF in a new tab
        const download = dialog.getByRole('link', { name: /^Download Report/ });
        expect(await download.getAttribute('target')).toBe('_blank');
        const report = await page.request.get(new URL((await download.getAttribute('href'))!, server.url).href);
        expect(report.status()).toBe(200);
        expect(report.headers()['content-type']).toBe('application/pdf');
        // no banner landmark inside the dialog (its title bar and the archetype card are not a second one beside the site's)
        expect(await dialog.getByRole('banner').count()).toBe(0);

        await dialog.getByRole('button', { name: 'Book Your Strategy Session' }).click();
        await modalTitle(page).filter({ hasText: 'Book Your Strategy Session' }).waitFor();
        await shot('yes-flow');
        // the coach saves another booking page while this modal is open: the step after paying links to it
        const newBooking = `${BOOKING_URL}-${viewport.width}`;
        await server.pool.query("UPDATE integration_settings SET value = $1 WHERE key = 'scheduling'", [newBooking]);
        onTestFinished(async () => {
          await server.pool.query("UPDATE integration_settings SET value = $1 WHERE key = 'scheduling'", [BOOKING_URL]);
        });
        await until(async () => (await (await fetch(`${server.url}/api/config`)).json()).bookingUrl === newBooking);
        // test-payment mode: the flow's payments job records the test payment, confirmed a second later
        await dialog.getByRole('button', { name: /Pay \$250 Refundable Deposit/ }).click();
        await dialog.getByText('Confirming your payment').waitFor();

        await modalTitle(page).filter({ hasText: 'Deposit Confirmed' }).waitFor({ timeout: 15_000 });
        await shot('payment-success');
        const booking = dialog.getByRole('link', { name: /Book your 45-minute strategy session/ });
        await expect
          .poll(async () => {
            const link = new URL((await booking.getAttribute('href'))!);
            return `${link.origin}${link.pathname}`;
          })
          .toBe(newBooking);
        const href = new URL((await booking.getAttribute('href'))!);
        expect(href.searchParams.get('email')).toBe(email);
        expect(href.searchParams.get('name')).toBe('Morgan Reyes');
        // the spec's local test-payment flags
        const flags = await page.evaluate(() => ({
          type: localStorage.getItem('payment_type'),
          intent: localStorage.getItem('payment_intent_id'),
        }));
        expect(flags).toEqual({ type: 'deposit', intent: expect.stringMatching(/^pi_test_/) });

        // reopened after paying, the results come back with the deposit paid, and lead back to the booking
        await dialog.getByRole('button', { name: 'Close' }).first().click();
        await dialog.waitFor({ state: 'detached' });
        await openAssessment(page, server.url);
        await modalTitle(page).filter({ hasText: 'Welcome Back' }).waitFor({ timeout: 10_000 });
        await dialog.getByTestId('archetype').waitFor();
        await expect(dialog.textContent()).resolves.toContain('Your deposit is paid');
        await shot('reopened-after-deposit');
        await dialog.getByRole('button', { name: 'Book Your Session' }).click();
        await modalTitle(page).filter({ hasText: 'Deposit Confirmed' }).waitFor();
        await dialog.getByRole('button', { name: 'See Your Results' }).click();
        await modalTitle(page).filter({ hasText: 'Welcome Back' }).waitFor();
        // one deposit, never a second checkout
        expect(
          (
            await server.pool.query(
              "SELECT count(*)::int AS n FROM payment_tracking WHERE purpose = 'deposit' AND lead_id = (SELECT lead_id FROM leads WHERE email = $1)",
              [email],
            )
          ).rows[0].n,
        ).toBe(1);

        expect(axe).toEqual([]);
        expect(problems.errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 150_000);
  }

  it('with Stripe, the deposit click opens a tab at once and the checkout the server opened loads in it; a checkout that cannot start says so and closes the tab', async () => {
    const fake = await startFakeStripe();
    const stripeServer = await startAssessmentServer({
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
      STRIPE_API_URL: fake.url,
    });
    // after its workers have stopped (test-finished hooks run last-registered first)
    onTestFinished(async () => {
      await stripeServer.close();
      await fake.close();
    });
    await stripeServer.workers(['payments']);
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      const seeded = await seedResultsFlow(stripeServer.pool, 'book_call');
      // Stripe's hosted page, answered here: the test never leaves the machine
      await context.route('https://checkout.stripe.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>Checkout</title><h1>Stripe Checkout</h1>' }),
      );
      await context.addCookies([{ name: VISITOR_COOKIE, value: seeded.visitorCookie, url: `${stripeServer.url}/api/` }]);
      await page.goto(stripeServer.url);
      await page.evaluate(() => localStorage.setItem('enableTestingMode', 'false'));
      await openAssessment(page, stripeServer.url);
      await modalTitle(page).filter({ hasText: 'Welcome Back' }).waitFor();
      const dialog = modal(page);
      await dialog.getByRole('button', { name: 'Book Your Strategy Session' }).click();
      await modalTitle(page).filter({ hasText: 'Book Your Strategy Session' }).waitFor();
      const pay = dialog.getByRole('button', { name: /Pay \$250 Refundable Deposit/ });

      // Stripe refuses: the flow comes back with the product's notice and the blank tab goes
      fake.failNext('/v1/checkout/sessions', { status: 400, type: 'invalid_request_error', message: 'No such price' });
      const blank = context.waitForEvent('page');
      await pay.click();
      const unused = await blank;
      await dialog.getByText('There was an issue starting your checkout. Please try again.').waitFor({ timeout: 15_000 });
      await dialog.getByText('Payment Failed').waitFor();
      await expect.poll(() => unused.isClosed()).toBe(true);

      // again: the tab opened by the click loads the checkout once the server has it
      const tab = context.waitForEvent('page');
      await pay.click();
      const checkout = await tab;
      await checkout.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, { timeout: 15_000 });
      await dialog.getByText('Complete your deposit in the secure checkout tab.').waitFor();
      const [session] = [...fake.sessions.values()];
      expect(await dialog.getByRole('link', { name: /Open Checkout Again/ }).getAttribute('href')).toBe(session!.url);
      expect(checkout.url()).toBe(session!.url);
      expect(await page.evaluate(() => localStorage.getItem('payment_type'))).toBe('deposit');
      await capture(page, 'payment-checkout', DESKTOP.width, []);
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a personal token link opens the assessment with the visitor known, skipping capture', async () => {
    const token = `tok-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
    const email = uniqueEmail('token');
    await server.pool.query(
      "INSERT INTO lead_tokens (token, email, name, source, expires_at) VALUES ($1, $2, 'Jordan Lee', 'token', now() + interval '1 day')",
      [token, email],
    );
    const { context, page, problems } = await openPage(browser, DESKTOP);
    try {
      await page.goto(`${server.url}/?token=${token}`);
      await modalTitle(page).filter({ hasText: 'Leadership Diagnostic' }).waitFor();
      await modal(page).locator('[data-diagnostic-screen]').waitFor();
      const flowId = await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:assessment'));
      const flow = await server.pool.query("SELECT snapshot->'context'->'session' AS session FROM flows WHERE id = $1", [flowId]);
      expect(flow.rows[0].session).toMatchObject({ source: 'token', email, name: 'Jordan Lee', leadToken: token });
      expect(flow.rows[0].session.leadId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('hf:leadSession') ?? 'null'))).toMatchObject({
        email,
        source: 'token',
      });
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

  it("a returning visitor's assessment opens at their completed results, found by the server; its next step continues there, and Retake starts again", async () => {
    const seeded = await seedResultsFlow(server.pool, 'homework');
    /** A browser of the visitor whose assessment it is (their cookie), with testing mode off: it never shows completed results. */
    const asReturning = async () => {
      const opened = await openPage(browser, MOBILE);
      await opened.context.addCookies([{ name: VISITOR_COOKIE, value: seeded.visitorCookie, url: `${server.url}/api/` }]);
      await opened.page.goto(server.url);
      await opened.page.evaluate(() => localStorage.setItem('enableTestingMode', 'false'));
      return opened;
    };
    const first = await asReturning();
    const second = await asReturning();
    try {
      const { page } = first;
      await openAssessment(page, server.url);
      await modalTitle(page).filter({ hasText: 'Welcome Back' }).waitFor();
      await modal(page).getByText('These are the results of the assessment you completed.').waitFor();
      await modal(page).getByTestId('archetype').waitFor();
      // nothing about the result is kept in the browser
      const resultKeys = ['hf:assessment_data', 'hf:assessment_completed', 'hf:assessmentCompleted', 'hf:tier'];
      expect(await page.evaluate((keys) => keys.filter((key) => localStorage.getItem(key) !== null), resultKeys)).toEqual([]);
      await capture(page, 'completed-results', MOBILE.width, []);
      await modal(page).getByRole('button', { name: 'See Your Options' }).click();
      await modalTitle(page).filter({ hasText: 'Choose Your Next Step' }).waitFor();
      // on the server flow the visit opened, which carries the visitor's lead
      const flowId = await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:assessment'));
      expect(flowId).not.toBe(seeded.flowId);
      await page.waitForFunction(async (id) => (await (await fetch(`/api/flows/${id}`)).json()).state === 'maybe_flow', flowId);
      const bound = await server.pool.query('SELECT lead_id FROM flows WHERE id = $1', [flowId]);
      expect(bound.rows[0].lead_id).toBe(seeded.leadId);

      // another browser of the same visitor: Retake Assessment goes to the intro, and the result is forgotten
      await openAssessment(second.page, server.url);
      await modalTitle(second.page).filter({ hasText: 'Welcome Back' }).waitFor();
      await modal(second.page).getByRole('button', { name: 'Retake Assessment' }).click();
      await modalTitle(second.page).filter({ hasText: 'Assessment Overview' }).waitFor();
      // the browser shows the retake at once; the server's transaction that records it may land a moment later
      const clearedAt = async () =>
        (await server.pool.query('SELECT results_cleared_at FROM visitors WHERE id = $1', [seeded.visitorId])).rows[0].results_cleared_at;
      await expect.poll(clearedAt).toBeInstanceOf(Date);
      expect(first.problems.errors).toEqual([]);
      expect(second.problems.errors).toEqual([]);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it("when the server's grading fails, the browser grades the answers itself and says so; the failed job waits for the coach's retry", async () => {
    await buildTestWorker(server, {
      queues: ['grading', 'timers'],
      processors: {
        grading: {
          ...gradingProcessor,
          process: () => Promise.reject(new UnrecoverableError('the grading store is not answering')),
        },
      },
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
      // the browser's result is shown, never stored: the one grading job stays failed, for a retry from the admin
      const lead = await server.pool.query('SELECT lead_id FROM leads WHERE email = $1', [email]);
      const jobs = await server.pool.query("SELECT status FROM jobs WHERE queue = 'grading' AND lead_id = $1", [lead.rows[0].lead_id]);
      expect(jobs.rows).toEqual([{ status: 'failed' }]);
      expect((await server.pool.query('SELECT 1 FROM assessment_results WHERE lead_id = $1', [lead.rows[0].lead_id])).rowCount).toBe(0);
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
      await second.waitForFunction(
        () => document.querySelector('[role="dialog"] [role="progressbar"]')?.getAttribute('aria-valuetext') === '7 of 22',
      );
      await expect(heading(second)).resolves.toBe(await heading(page));
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a timed question's countdown runs out: the page says time is up, and the server's timer records the first option", async () => {
    const { queues } = await server.workers(['timers']);
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

      // the countdown reaches zero: the browser sends nothing, says time is up and waits
      const flowId = await diagnosticFlowId(page);
      const posted: string[] = [];
      page.on('request', (request) => void (request.method() === 'POST' && posted.push(request.url())));
      await page.clock.fastForward(31_000);
      await modal(page).locator('[data-time-up]').waitFor();
      await expect(modal(page).getByRole('group', { name: 'Your choice' }).getByRole('button').first().isDisabled()).resolves.toBe(true);
      await capture(page, 'diagnostic-time-up', DESKTOP.width, []);
      expect(posted).toEqual([]);
      expect((await serverDiagnostic(flowId)).context.index).toBe(18);

      // the server's own timer (a timers job, run now rather than in 50 s) records the default answer and pushes the next screen
      await backdateDiagnostics(server.pool, 60_000);
      await promoteTimers(server.pool, queues, flowId);
      await page.waitForFunction(
        () => document.querySelector('[role="dialog"] [role="progressbar"]')?.getAttribute('aria-valuetext') === '20 of 22',
      );
      await expect(timer.textContent()).resolves.toBe('0:45');
      const diagnostic = await serverDiagnostic(flowId);
      expect(diagnostic.context.answers.vig_dc).toMatchObject({
        type: 'vignette',
        value: 'dc_partial',
        timedOut: true,
        responseTime: 50_000,
      });
      expect(diagnostic.context.index).toBe(19);
      expect(posted).toEqual([]);
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

  it('a homework lead chooses free resources (a real lead: emailed), and a nurture test lead is offered the community (no email of any kind)', async () => {
    await server.workers(['grading', 'timers', 'homework', 'email']);
    for (const [tier, survey] of [
      ['homework', HOMEWORK],
      ['nurture', NURTURE],
    ] as const) {
      const { context, page, problems } = await openPage(browser, tier === 'homework' ? DESKTOP : MOBILE);
      const width = tier === 'homework' ? DESKTOP.width : MOBILE.width;
      context.on('page', (popup) => void popup.close());
      try {
        // a local host is testing mode: the homework lead is a real one, with the testing panel's switch off
        if (tier === 'homework') {
          await page.goto(server.url);
          await page.evaluate(() => localStorage.setItem('enableTestingMode', 'false'));
        }
        const email = await startDiagnostic(page);
        await answerDiagnostic(page);
        await answerSurvey(page, survey);
        await modal(page).getByRole('button', { name: 'See My Results' }).click();
        await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor({ timeout: 30_000 });
        expect(await storedTier(page)).toBe(tier);
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
          await modal(page)
            .getByRole('link', { name: /Join the Free Community/ })
            .click();
          await modal(page).getByText('Welcome aboard').waitFor();
          // a test lead (a local host is testing mode): nothing was written to its address, not even the results
          const sent = await server.pool.query('SELECT o.kind FROM email_outbox o JOIN leads l USING (lead_id) WHERE l.email = $1', [
            email,
          ]);
          expect(sent.rows).toEqual([]);
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
        await dialog
          .getByText(index === lines.length - 1 ? 'Complete' : `${index + 1}/5 exchanges`, { exact: true })
          .waitFor({ timeout: 20_000 });
        if (index === 1) await capture(page, 'mirror', MOBILE.width, []);
      }
      await capture(page, 'mirror-complete', MOBILE.width, []);
      await dialog.getByRole('button', { name: 'Continue to the Diagnostic' }).click();
      await modalTitle(page).filter({ hasText: 'Leadership Diagnostic' }).waitFor();
      const flowId = await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:mirror'));
      // the title changes at once (the browser's own copy); the server's copy follows
      const read = () => server.pool.query("SELECT state, snapshot->'context'->'mirrorChat' AS chat FROM flows WHERE id = $1", [flowId]);
      await expect.poll(async () => (await read()).rows[0].state).toBe('diagnostic');
      const flow = await read();
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
    const withInspector = scripts.filter((file) =>
      /xstateinspector|createBrowserInspector|@statelyai/.test(readFileSync(path.join(assets, file), 'utf8')),
    );
    expect(withInspector).toEqual([]);
  });
});
