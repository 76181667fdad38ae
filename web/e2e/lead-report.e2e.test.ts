/*
 * The coach's report on a lead, for leads driven for real through each tier: the visitor's flow
 * over HTTP, grading, timers, payments, homework and email jobs on workers in this process, email
 * sent through a loopback SMTP server; then the lead's page in Chromium. Full-page screenshots of
 * the book_call lead go to SHOTS_DIR (default /tmp/shots-lead-report; docs/screenshots holds the
 * README's copies), screen-high slices of them to the system's temporary folder.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualificationSurvey } from '#machines/content/index.js';
import type { Tier } from '#machines/protocol/common.js';
import { backdater, flowClient, runDiagnostic, SURVEYS } from '#test/journey.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '#test/smtp-sink.js';
import { until } from '#test/until.js';
import { startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { seriousAxeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openAdminPage, signedInAdminState, type StorageState } from './pages.js';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-lead-report';
const SLICES = path.join(tmpdir(), 'shots-lead-report-slices');

/** What each tier's visitor does after the results, where the flow ends, and the emails the lead gets. */
const PATHS: Record<Tier, { name: string; actions: string[]; ends: string; emails: string[] }> = {
  book_call: {
    name: 'Morgan Reyes',
    actions: ['CONTINUE', 'PAY_DEPOSIT'],
    ends: 'payment_success.confirmed',
    emails: ['results', 'deposit_receipt'],
  },
  homework: {
    name: 'Priya Shah',
    actions: ['CONTINUE', 'PAY_FOR_HOMEWORK'],
    ends: 'payment_success.confirmed',
    emails: ['results', 'homework', 'deposit_receipt'],
  },
  nurture: { name: 'Sam Lee', actions: ['CONTINUE', 'JOIN_COMMUNITY'], ends: 'no_flow.joined', emails: ['results'] },
};
const TIERS = Object.keys(PATHS) as Tier[];

let server: AssessmentServer;
let sink: SmtpSink;
let browser: Browser;
let signedIn: StorageState;
const leads = {} as Record<Tier, { leadId: string; email: string }>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(SLICES, { recursive: true });
  sink = await startSmtpSink();
  server = await startAssessmentServer({ SMTP_URL: sink.url });
  browser = await launchBrowser();
  signedIn = await signedInAdminState(browser, server.url, server.pool, `lead-report-admin-${Date.now()}@example.com`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.close();
});

/** One visitor from capture to the end of `tier`'s path, over HTTP as their browser would. */
async function walk(tier: Tier): Promise<{ leadId: string; email: string }> {
  const client = flowClient(server.url);
  const email = `${PATHS[tier].name.split(' ')[0]!.toLowerCase()}-${Date.now()}@example.com`;
  const flow = await client.start();
  await client.send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: PATHS[tier].name, email });
  await client.send(flow.flowId, { type: 'START_DIAGNOSTIC' });
  const diagnostic = await runDiagnostic(client, { backdate: backdater(server.pool), thinkMs: 6000 });
  await client.send(flow.flowId, { type: 'DIAGNOSTIC_COMPLETED', answers: {}, diagnosticFlowId: diagnostic.flowId });
  await client.send(flow.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS[tier] });
  const stateIs = (state: string) => until(async () => (await client.get(flow.flowId)).state === state, 30_000);
  await stateIs('results');
  for (const type of PATHS[tier].actions) await client.send(flow.flowId, { type });
  await stateIs(PATHS[tier].ends);
  const found = await server.pool.query<{ lead_id: string; tier: string }>('SELECT lead_id, tier FROM lead_facts(true) WHERE email = $1', [
    email,
  ]);
  expect(found.rows[0]?.tier).toBe(tier);
  return { leadId: found.rows[0]!.lead_id, email };
}

/** The lead's emails as the outbox holds them. */
async function emailsOf(leadId: string) {
  const sql = 'SELECT kind, subject, status FROM email_outbox WHERE lead_id = $1';
  return (await server.pool.query<{ kind: string; subject: string; status: string }>(sql, [leadId])).rows;
}

/** The message the SMTP server received for `to` with `subject`. */
function received(to: string, subject: string): ReceivedMail {
  const mail = sink.messages.find((m) => m.envelopeTo.includes(to) && m.subject === subject);
  const got = sink.messages.map((m) => `${m.subject} -> ${m.envelopeTo.join(', ')}`).join('; ');
  if (!mail) throw new Error(`no mail "${subject}" to ${to}; got ${got}`);
  return mail;
}

async function openLead(viewport: { width: number; height: number }, tier: Tier) {
  const { context, page, errors } = await openAdminPage(browser, signedIn, viewport);
  await page.goto(`${server.url}/admin/leads/${leads[tier].leadId}`);
  await page.getByRole('heading', { level: 1, name: PATHS[tier].name }).waitFor();
  return { page, errors, close: () => context.close() };
}

/** Text the page shows, technical details left closed (a closed <details> renders only its summary). */
const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);

describe("a lead's page reads as a report, for a lead of each tier", () => {
  it('drives a visitor through each tier with the workers, the emails sent over SMTP', async () => {
    await server.workers(['grading', 'timers', 'payments', 'homework', 'email']);
    const walked = await Promise.all(TIERS.map((tier) => walk(tier)));
    TIERS.forEach((tier, i) => (leads[tier] = walked[i]!));
    for (const tier of TIERS) {
      const sent = async () => {
        const rows = await emailsOf(leads[tier].leadId);
        return rows
          .filter((row) => row.status === 'sent')
          .map((row) => row.kind)
          .sort();
      };
      await until(async () => (await sent()).length >= PATHS[tier].emails.length, 30_000);
      expect(await sent()).toEqual([...PATHS[tier].emails].sort());
    }
  }, 180_000);

  it.each(TIERS)('%s: emails readable, survey and diagnostic in words, journey and jobs in words', async (tier) => {
    const { email, leadId } = leads[tier];
    const { page, errors, close } = await openLead(DESKTOP, tier);

    // each email the tier sends, as it reached the SMTP server, readable once opened
    const emails = page.getByRole('region', { name: 'Emails' });
    const rows = await emailsOf(leadId);
    expect(rows.map((row) => row.kind).sort()).toEqual([...PATHS[tier].emails].sort());
    for (const { kind, subject } of rows) {
      const item = emails.locator(`li[data-email="${kind}"]`);
      await item.getByText(subject).waitFor();
      const body = item.locator('pre');
      expect(await body.isVisible()).toBe(false);
      await item.getByText('Read the email').click();
      // a line of the body as the SMTP server received it
      const line = received(email, subject)
        .text.split(/\r?\n/)
        .map((l) => l.trim())
        .find((l) => l.length > 40)!;
      expect(line).toBeTruthy();
      await body.getByText(line, { exact: false }).first().waitFor();
    }

    // every survey question's text beside the label of what was chosen, never the option's code
    const survey = page.getByRole('region', { name: 'Survey' });
    for (const question of qualificationSurvey.questions) {
      const answered = (SURVEYS[tier] as Record<string, string>)[question.id];
      const expected = question.kind === 'choice' ? question.options.find((o) => o.id === answered)!.label : (answered ?? 'Not answered');
      const row = survey.locator('dl > div').filter({ has: page.locator('dt', { hasText: question.prompt }) });
      expect(await row.locator('dd').textContent()).toBe(expected);
    }
    const surveyText = await survey.innerText();
    for (const code of Object.values(SURVEYS[tier]).filter((v) => v.includes('_'))) expect(surveyText).not.toContain(code);

    // the diagnostic by section, statements beside answers in words
    const diagnostic = page.getByRole('region', { name: 'Diagnostic answers' });
    const baseline = diagnostic.getByRole('region', { name: 'Baseline: how you lead today' });
    const first = baseline.getByRole('listitem').first();
    expect(await first.textContent()).toContain('Everyone on my team could name the three outcomes we are accountable for this quarter.');
    expect(await first.textContent()).toContain('3 – Neutral');
    await diagnostic.getByRole('region', { name: 'Priority ranking' }).getByRole('list', { name: 'Ranked first to last' }).waitFor();
    expect(await diagnostic.getByRole('region', { name: 'Scenarios' }).getByText('Confidence 4 – Very confident').count()).toBe(4);

    // the journey and the jobs in words
    const journey = page.getByRole('region', { name: 'Journey' });
    const timeline = journey.getByRole('list', { name: 'Journey timeline' });
    const steps = ['Left their details', 'Submitted the survey', 'Assessment graded'];
    for (const words of [...steps, 'Continued from the results']) {
      await timeline.getByText(words, { exact: true }).first().waitFor();
    }
    const jobs = page.getByRole('region', { name: 'Jobs' });
    for (const words of ['Grading the assessment', 'Results email']) {
      await jobs.getByText(words).first().waitFor();
    }
    if (tier === 'book_call') {
      await timeline.getByText('Chose to pay the deposit').waitFor();
      await jobs.getByText('Deposit receipt').waitFor();
      expect(await journey.locator('h3').first().textContent()).toContain('now: Payment confirmed');
    }
    if (tier === 'homework') await jobs.getByText('Sending homework').waitFor();
    if (tier === 'nurture') await timeline.getByText('Joined the community').first().waitFor();

    // no code names outside the technical details; inside them, the raw names are still there
    // links are left out: a signed report link's random token can spell anything
    const text = (await visibleText(page)).replace(/https?:\/\/\S+/g, '');
    expect(text).not.toMatch(/xstate\.|[A-Z]{3,}_[A-Z_]+|\b(yes_flow|no_flow|payment_success|processing\.)/);
    expect(text).toContain('Technical details');
    const grading = jobs.locator('li').filter({ hasText: 'Grading the assessment' });
    await grading.getByText('Technical details').click();
    expect(await grading.locator('details dl').innerText()).toMatch(/grading\s+Job\s+lead-assessment/);
    const graded = timeline.getByRole('listitem').filter({ hasText: 'Assessment graded' });
    await graded.getByText('Technical details').click();
    await graded.getByText('GRADED', { exact: false }).first().waitFor();

    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps every card within a 390 px screen, technical details open; screenshots of the book_call lead', async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const { page, errors, close } = await openLead(viewport, 'book_call');
      await page.getByRole('region', { name: 'Journey' }).getByRole('list', { name: 'Journey timeline' }).waitFor();
      await page.screenshot({ path: path.join(SHOTS, `admin-lead-${viewport.width}.png`), fullPage: true });
      // and in screen-high slices, easier to look at closely than one tall image
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let top = 0, part = 1; top < height; top += viewport.height, part++) {
        const clip = { x: 0, y: top, width: viewport.width, height: Math.min(viewport.height, height - top) };
        await page.screenshot({ path: path.join(SLICES, `admin-lead-${viewport.width}-${part}.png`), fullPage: true, clip });
      }
      // every disclosure open: the longest code names on the page
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
      const overflowing = await page.evaluate((width) => {
        const wide = [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > width + 0.5);
        const named = wide.slice(0, 5).map((el) => `${el.tagName} ${el.textContent?.slice(0, 60)}`);
        return { page: document.documentElement.scrollWidth, wide: named };
      }, viewport.width);
      expect(overflowing).toEqual({ page: viewport.width, wide: [] });
      const journey = page.getByRole('region', { name: 'Journey' });
      await journey.screenshot({ path: path.join(SLICES, `admin-lead-journey-open-${viewport.width}.png`) });
      expect(errors).toEqual([]);
      await close();
    }
  });
});
