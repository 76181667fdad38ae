import type pg from 'pg';
import type { Page } from 'playwright-core';
import type { QueueName } from '#core/queues/names.js';
import { backdatedSnapshot } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { WEB_ROOT } from './server.js';

/**
 * The real app for the assessment's browser tests, on a database and queue prefix of this file's
 * own (the workers' outbox relay claims every pending job of its database, so a file that runs
 * workers must not share one), serving the built site.
 */
export type AssessmentServer = TestApp & {
  /** Starts the worker side (relay and processors) in this process; stopped when the test ends. */
  workers: (queues?: QueueName[]) => ReturnType<typeof buildTestWorker>;
};

/** `overrides` are environment variables for this server's config (e.g. a Slack signing secret). */
export async function startAssessmentServer(overrides: Record<string, string> = {}): Promise<AssessmentServer> {
  const server = await buildTestApp({ ownDatabase: true, env: overrides, listen: true, webRoot: WEB_ROOT });
  return {
    ...server,
    workers: (queues = ['grading', 'timers', 'homework', 'mirror', 'email', 'payments']) => buildTestWorker(server, { queues }),
  };
}

/**
 * Makes the server believe every unfinished diagnostic's current screen was shown `ms` ago. The
 * test answers in a fraction of a second; past 10 s the server no longer believes the browser's
 * short claim and records its own measure instead, so the answers grade as considered, not rushed.
 */
export async function backdateDiagnostics(pool: pg.Pool, ms = 12_000): Promise<void> {
  await pool.query(`UPDATE flows SET snapshot = ${backdatedSnapshot('$1')} WHERE machine = 'diagnostic' AND state <> 'done'`, [ms]);
}

/** Waits for the next event POST of a flow to be answered (after `act` triggers it). */
export async function postedEvent(page: Page, act: () => Promise<void>): Promise<void> {
  const answered = page.waitForResponse(
    (response) => /\/api\/flows\/[^/]+\/events$/.test(response.url()) && response.request().method() === 'POST',
  );
  await act();
  await answered;
}

/** The modal dialog. */
export function modal(page: Page) {
  return page.getByRole('dialog');
}

/** The modal's title (the dialog's heading). */
export function modalTitle(page: Page) {
  return modal(page).locator('h2').first();
}

/** Opens the assessment from one of the home page's calls to action (the Mirror's opens it as 'mirror'). */
export async function openAssessment(page: Page, url: string, button = 'Take the Free Assessment'): Promise<void> {
  if (page.url() !== url) await page.goto(url);
  await page.getByRole('button', { name: button }).first().click();
  await modalTitle(page).waitFor();
}

/** Answers the modal's qualification survey with one option label per choice question, then the open question. */
export async function answerSurvey(page: Page, choices: readonly string[]) {
  const dialog = modal(page);
  for (const label of choices) await dialog.getByText(label, { exact: true }).click();
  await dialog.getByLabel(/Imagine we have worked together for a year/).fill('A team that decides well without me in the room.');
}

/** The survey answers that lead to each tier (with a steady diagnostic). */
export const HOMEWORK = [
  'I am ready to invest with a payment plan.',
  'Within the next 30 days.',
  'Important: it has to be solved this year.',
  'I want practical tools I can use this week.',
];
export const NURTURE = [
  'I need a few months to secure the budget.',
  'Not for at least 3 months.',
  'Exploring: I am more curious than concerned.',
  'I am not sure coaching works, but I am willing to find out.',
];
export const BOOK_CALL = [
  'I am ready to invest now.',
  'Immediately.',
  'Critical: it is costing us people, results or my health right now.',
  'I want to be challenged, even when it is uncomfortable.',
];
