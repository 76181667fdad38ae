/*
 * A system event reaching the assessment flow while the visitor is in the diagnostic (issue 29):
 * the "finish your assessment" reminder, set to 36 s after the capture (ASSESSMENT_REMINDER_HOURS),
 * fires through the real timers worker while the visitor is at the diagnostic's third question. The
 * question stays on screen, the same diagnostic flow takes the next answer, no second diagnostic
 * is started, and a reload resumes that flow.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modal, modalTitle, openAssessment, postedEvent, startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, openPage } from './pages.js';

/** 36 s: time enough to reach the third question first, even on a busy machine. */
const REMINDER_HOURS = 0.01;

let server: AssessmentServer;
let browser: Browser;

beforeAll(async () => {
  server = await startAssessmentServer({ ASSESSMENT_REMINDER_HOURS: String(REMINDER_HOURS) });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The question on screen: its id and its progress text (e.g. '3 of 22'). */
async function question(page: Page) {
  const dialog = modal(page);
  return {
    screen: await dialog.locator('[data-diagnostic-screen]').getAttribute('data-diagnostic-screen'),
    progress: await dialog.getByRole('progressbar').getAttribute('aria-valuetext'),
  };
}

/** Answers the likert question on screen with `value` (its number key) and waits for the next one. */
async function answerLikert(page: Page, value: number) {
  const before = (await question(page)).screen;
  await postedEvent(page, () => page.keyboard.press(String(value)));
  await page.waitForFunction(
    (shown) => document.querySelector('[data-diagnostic-screen]')?.getAttribute('data-diagnostic-screen') !== shown,
    before,
  );
}

/** The flow ids this tab keeps: its assessment flow and the diagnostic it runs. */
function tabFlows(page: Page) {
  return page.evaluate(() => {
    const diagnostic = Object.keys(sessionStorage).find((key) => /^hf:flow:child:.*:diagnostic:/.test(key));
    return {
      assessment: sessionStorage.getItem('hf:flow:assessment:assessment'),
      diagnostic: diagnostic ? sessionStorage.getItem(diagnostic) : null,
    };
  });
}

describe('the reminder to finish, firing mid-diagnostic', () => {
  it('leaves the question on screen and the same diagnostic flow running; a reload resumes it', { timeout: 180_000 }, async () => {
    await server.workers(['timers', 'email']);
    const { context, page, problems } = await openPage(browser, DESKTOP);
    // every flow this page starts, by machine
    const started: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/flows') {
        started.push((JSON.parse(request.postData() ?? '{}') as { machine?: string }).machine ?? 'assessmentFlow');
      }
    });
    const pushed: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => pushed.push(String(payload))));

    await page.goto(server.url);
    // a real lead (on a local host the modal runs in testing mode, whose leads get no reminders)
    await page.evaluate(() => localStorage.setItem('enableTestingMode', 'false'));
    await openAssessment(page, server.url);
    const dialog = modal(page);
    await dialog.getByLabel('Name').fill('Alex Morgan');
    await dialog.getByLabel('Email').fill(`reminder-${Date.now()}@example.com`);
    await dialog.getByRole('button', { name: 'Start My Assessment' }).click();
    await dialog.getByRole('button', { name: 'Begin the Diagnostic' }).click();
    await dialog.locator('[data-diagnostic-screen]').waitFor();
    await answerLikert(page, 3);
    await answerLikert(page, 2);

    const shown = await question(page);
    expect(shown.progress).toMatch(/^3 of /);
    const flows = await tabFlows(page);
    expect(flows.diagnostic).not.toBeNull();
    expect(started).toEqual(['assessmentFlow', 'diagnostic']);

    // the timers worker applies the reminder to the assessment flow, which is in the diagnostic
    const reminder = () =>
      server.pool.query<{ state_after: string; origin: string }>(
        "SELECT state_after, origin FROM flow_events WHERE flow_id = $1 AND type = 'ASSESSMENT_REMINDER_DUE'",
        [flows.assessment],
      );
    await expect.poll(async () => (await reminder()).rows, { timeout: 120_000, interval: 500 }).toHaveLength(1);
    expect((await reminder()).rows).toEqual([{ state_after: 'diagnostic', origin: 'server' }]);
    // this tab hears of it, and has had the time to act on it
    await expect.poll(() => pushed.some((frame) => frame.includes('"ASSESSMENT_REMINDER_DUE"')), { timeout: 10_000 }).toBe(true);
    // and whatever it fetched on hearing it has arrived
    await page.waitForLoadState('networkidle');

    expect(await modalTitle(page).textContent()).toBe('Leadership Diagnostic');
    expect(await question(page)).toEqual(shown);
    expect(await tabFlows(page)).toEqual(flows);
    expect(started).toEqual(['assessmentFlow', 'diagnostic']);

    // the same diagnostic flow takes the next answer
    await answerLikert(page, 4);
    const diagnostic = await server.pool.query<{ index: number }>(
      "SELECT (snapshot->'context'->>'index')::int AS index FROM flows WHERE id = $1",
      [flows.diagnostic],
    );
    expect(diagnostic.rows).toEqual([{ index: 3 }]);

    // a reload resumes it at the fourth question
    await page.reload();
    await openAssessment(page, server.url);
    await dialog.locator('[data-diagnostic-screen]').waitFor();
    expect((await question(page)).progress).toMatch(/^4 of /);
    expect(await tabFlows(page)).toEqual(flows);
    expect(started).toEqual(['assessmentFlow', 'diagnostic']);
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
