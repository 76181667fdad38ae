import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openAdminPage, openPage, signedInAdminState } from './pages.js';
import { promoteTimers } from '#test/journey.js';
import {
  answerSurvey,
  backdateDiagnostics,
  HOMEWORK,
  modal,
  modalTitle,
  startAssessmentServer,
  type AssessmentServer,
} from './assessment-harness.js';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-standalone';
mkdirSync(SHOTS, { recursive: true });

async function shot(page: Page, name: string, width: number) {
  await page.setViewportSize({ width, height: width < 768 ? MOBILE.height : DESKTOP.height });
  // a full-page shot of a scrolled page paints the fixed navigation mid-page
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
}

async function shots(page: Page, name: string) {
  const original = page.viewportSize();
  for (const width of [MOBILE.width, DESKTOP.width]) await shot(page, name, width);
  if (original) await page.setViewportSize(original);
}

const progressText = (page: Page) => page.getByRole('progressbar', { name: 'Diagnostic progress' }).getAttribute('aria-valuetext');

/**
 * Answers the current item of /diagnostic (likert 4 unless told, first vignette option with confidence 4,
 * ranking as given), starting the timed block first when 'Timed Questions Ahead' is on show.
 */
async function answerCurrent(page: Page, likert = 4): Promise<string> {
  const card = page.locator('main [aria-busy="false"]');
  await card.waitFor();
  const startTimed = card.getByRole('button', { name: 'Start Timed Questions' });
  if (await startTimed.count()) {
    await startTimed.click();
    await page.locator('main [aria-busy="false"]').getByRole('group', { name: 'Your choice' }).waitFor();
  }
  const ranking = card.getByRole('button', { name: 'Submit Ranking' });
  const choice = card.getByRole('group', { name: 'Your choice' });
  if (await ranking.count()) {
    await ranking.click();
    return 'ranking';
  }
  if (await choice.count()) {
    await choice.getByRole('button').first().click();
    const confidence = card.getByRole('group', { name: /Confidence/ });
    await confidence.waitFor({ timeout: 2_000 }).catch(() => undefined);
    if (await confidence.count()) {
      expect(await confidence.getByRole('button').count()).toBe(5);
      await confidence.getByRole('button').nth(3).click();
      return 'vignette+confidence';
    }
    return 'vignette';
  }
  await card.getByRole('button', { name: new RegExp(`^${likert}\\b`) }).click();
  return 'likert';
}

describe('the standalone diagnostic, results and Mirror pages in a real browser', () => {
  let browser: Browser;
  let server: AssessmentServer;

  beforeAll(async () => {
    // a database of its own: the diagnostic is graded by the flow's grading job, run by workers here
    server = await startAssessmentServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("takes the diagnostic through every item, the timed ones after 'Timed Questions Ahead', to /survey, then /results shows the result and serves the PDF", async () => {
    await server.workers(['grading', 'timers']);
    const { context, page, problems } = await openPage(browser);
    // an old id is forgotten when the diagnostic opens
    await page.goto(`${server.url}/survey`);
    await page.evaluate(() => localStorage.setItem('hf:diagId', 'stale'));
    await page.goto(`${server.url}/diagnostic`);
    await page.getByRole('heading', { level: 1, name: 'Leadership Diagnostic' }).waitFor();
    await expect.poll(() => progressText(page)).toMatch(/^Item 1 \/ \d+$/);
    const total = Number((await progressText(page))!.split('/ ')[1]);
    expect(total).toBeGreaterThan(3);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('hf:diagId'))).toMatch(/^[0-9a-f-]{36}$/);
    const diagnosticId = (await page.evaluate(() => localStorage.getItem('hf:diagId')))!;
    expect(await axeViolations(page)).toEqual([]);
    await shots(page, 'diagnostic-likert');

    const kinds = new Set<string>();
    for (let item = 1; item <= total; item++) {
      await expect.poll(() => progressText(page)).toBe(`Item ${item} / ${total}`);
      if (item === total - 1) await shots(page, 'diagnostic-late');
      const text = await page.locator('main h2').first().innerText();
      if ((await page.getByRole('button', { name: 'Submit Ranking' }).count()) > 0) {
        expect(
          await page
            .getByRole('list', { name: /priorities/ })
            .getByRole('listitem')
            .count(),
        ).toBeGreaterThan(1);
        expect(await axeViolations(page)).toEqual([]);
        await shots(page, 'diagnostic-ranking');
      }
      if ((await page.getByRole('button', { name: 'Start Timed Questions' }).count()) > 0) {
        expect(await axeViolations(page)).toEqual([]);
        await shots(page, 'diagnostic-timed-ahead');
      }
      kinds.add(await answerCurrent(page));
      if (item < total) await page.locator('main h2').first().filter({ hasNotText: text }).waitFor();
    }
    await page.waitForURL(`${server.url}/survey`);
    expect([...kinds].sort()).toEqual(['likert', 'ranking', 'vignette+confidence']);

    // the flow's grading job stores the answers (as the server's machine recorded them) and the result
    const resultsStored = async () =>
      (await server.pool.query('SELECT 1 FROM diagnostic_results WHERE diagnostic_id = $1', [diagnosticId])).rowCount;
    await expect.poll(resultsStored, { timeout: 15_000 }).toBe(1);
    const result = await server.pool.query<{ archetype: string }>('SELECT archetype FROM diagnostic_results WHERE diagnostic_id = $1', [
      diagnosticId,
    ]);
    const answers = await server.pool.query(
      'SELECT a.item_id, a.confidence FROM diagnostics d, jsonb_to_recordset(d.answers) AS a(item_id text, confidence smallint) WHERE d.id = $1',
      [diagnosticId],
    );
    expect(answers.rowCount).toBe(total);
    expect(answers.rows.some((row) => row.confidence === 4)).toBe(true);
    const flow = await server.pool.query('SELECT f.state FROM flows f JOIN diagnostics d ON d.flow_id = f.id WHERE d.id = $1', [
      diagnosticId,
    ]);
    expect(flow.rows).toEqual([{ state: 'graded' }]);

    await page.goto(`${server.url}/results`);
    await page.getByRole('heading', { level: 1, name: result.rows[0]!.archetype }).waitFor();
    const main = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    for (const label of [
      'Leadership Effectiveness',
      'Delegation Command',
      'Trust Building',
      'Ownership Accountability Detachment',
      'Vision',
      'Friction Adaptability',
    ]) {
      expect(main).toContain(label);
    }
    expect(await page.getByRole('img', { name: /Radar chart/ }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Try Mirror' }).getAttribute('href')).toBe('/mirror');
    expect(await page.getByRole('link', { name: 'Retake Diagnostic' }).getAttribute('href')).toBe('/diagnostic');
    const download = page.getByRole('link', { name: /^Download Report/ });
    expect(await download.getAttribute('target')).toBe('_blank');
    const href = (await download.getAttribute('href'))!;
    expect(href).toBe(`/api/reports/${diagnosticId}.pdf`);
    const pdf = await context.request.get(`${server.url}${href}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(await axeViolations(page)).toEqual([]);
    await shots(page, 'results');
    expect(problems.errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('the finished diagnostic goes on at /survey: the assessment opens on its survey, asks for an address, shows the results, and the report then has the tier', async () => {
    await server.workers(['grading', 'timers']);
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${server.url}/diagnostic`);
    await expect.poll(() => progressText(page)).toMatch(/^Item 1 \/ \d+$/);
    const total = Number((await progressText(page))!.split('/ ')[1]);
    const diagnosticId = (await page.evaluate(() => localStorage.getItem('hf:diagId')))!;
    for (let item = 1; item <= total; item++) {
      await expect.poll(() => progressText(page)).toBe(`Item ${item} / ${total}`);
      // answered at a considered pace as the server measures it, not rushed
      await backdateDiagnostics(server.pool);
      const text = await page.locator('main h2').first().innerText();
      // varied, as a steady visitor answers (a straight line reads as gaming)
      await answerCurrent(page, [3, 2, 3, 4][item % 4]);
      if (item < total) await page.locator('main h2').first().filter({ hasNotText: text }).waitFor();
    }
    await page.waitForURL(`${server.url}/survey`);
    // the home page, with the assessment open on the qualification survey for this diagnostic
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await modalTitle(page).filter({ hasText: 'Qualification Survey' }).waitFor({ timeout: 15_000 });
    await answerSurvey(page, HOMEWORK);
    await modal(page).getByRole('button', { name: 'See My Results' }).click();
    await modalTitle(page).filter({ hasText: 'Save Your Details' }).waitFor();
    // leaving an address is the next step here, not an error
    expect(await modal(page).getByText('No lead ID found').count()).toBe(0);
    await modal(page).getByLabel('Name').fill('Dana Scully');
    await modal(page).getByLabel('Email').fill(`standalone-${Date.now()}@example.com`);
    await modal(page).getByRole('button', { name: 'Save and Continue' }).click();
    await modalTitle(page).filter({ hasText: 'Your Results' }).waitFor({ timeout: 30_000 });
    await modal(page).getByTestId('archetype').waitFor();
    await shots(page, 'standalone-survey-results');

    // the diagnostic's report now carries the assessment's next step, not "Complete the qualification survey"
    const tier = await server.pool.query<{ tier: string }>('SELECT tier FROM assessment_results WHERE diagnostic_id = $1', [diagnosticId]);
    expect(tier.rows).toHaveLength(1);
    const pdf = await context.request.get(`${server.url}/api/reports/${diagnosticId}.pdf`);
    expect(pdf.status()).toBe(200);
    // a reload does not start the survey again: the id left the history entry
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await modal(page).count()).toBe(0);
    expect(problems.errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("a timed item's countdown runs out: the page says time is up, and the server's timer records the first option", async () => {
    const { queues } = await server.workers(['timers']);
    const { context, page, problems } = await openPage(browser, MOBILE);
    await page.clock.install();
    await page.goto(`${server.url}/diagnostic`);
    await expect.poll(() => progressText(page)).toMatch(/^Item 1 \/ \d+$/);
    const card = page.locator('main [aria-busy="false"]');
    // each screen is looked at once its answer is settled: the next screen shows at once, but until
    // the server has the answer the card is busy, and a busy card's button would not be found here
    // (answerCurrent would then start the timed block itself and answer it to the end)
    for (;;) {
      await card.waitFor();
      if (await card.getByRole('button', { name: 'Start Timed Questions' }).count()) break;
      const text = await page.locator('main h2').first().innerText();
      await answerCurrent(page);
      await page.locator('main h2').first().filter({ hasNotText: text }).waitFor();
    }
    const at = (await progressText(page))!;
    await card.getByRole('button', { name: 'Start Timed Questions' }).click();
    const timer = page.getByRole('timer');
    await timer.waitFor();
    const limit = Number((await timer.textContent())!.split(':')[1]);

    await page.clock.fastForward((limit + 1) * 1000);
    await page.locator('main [data-time-up]').filter({ hasText: 'Time is up. Your default answer is being recorded.' }).waitFor();
    expect(await card.getByRole('group', { name: 'Your choice' }).getByRole('button').first().isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shots(page, 'diagnostic-time-up');

    const flowId = (
      await server.pool.query<{ flow_id: string }>('SELECT flow_id FROM diagnostics WHERE id = $1', [
        await page.evaluate(() => localStorage.getItem('hf:diagId')),
      ])
    ).rows[0]!.flow_id;
    await backdateDiagnostics(server.pool, (limit + 10) * 1000);
    await promoteTimers(server.pool, queues, flowId);
    const next = `Item ${Number(at.split(' ')[1]) + 1} / ${at.split('/ ')[1]}`;
    await expect.poll(() => progressText(page)).toBe(next);
    const stored = await server.pool.query("SELECT snapshot->'context'->'answers' AS answers FROM flows WHERE id = $1", [flowId]);
    expect(Object.values(stored.rows[0].answers).filter((answer) => (answer as { timedOut: boolean }).timedOut)).toHaveLength(1);
    expect(problems.errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('/results without a stored diagnostic id redirects to /survey; an unknown id shows the empty state', async () => {
    const { context, page } = await openPage(browser, MOBILE);
    await page.goto(`${server.url}/results`);
    await page.waitForURL(`${server.url}/survey`);

    page.on('dialog', (dialog) => void dialog.dismiss());
    await page.evaluate(() => localStorage.setItem('hf:diagId', '00000000-0000-4000-8000-000000000000'));
    await page.goto(`${server.url}/results`);
    await page.getByText('No results found.').waitFor();
    await context.close();
  });

  it('the Mirror: five exchanges to Complete, blocking sends while pending, then the save form and its validation', async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${server.url}/mirror`);
    await page.getByRole('heading', { level: 1, name: 'Mirror Demo' }).waitFor();
    const main = page.locator('main');
    await main.getByText('0/5 exchanges').waitFor();
    await main
      .getByText(/difficult decision/)
      .first()
      .waitFor();
    expect(await main.getByRole('checkbox', { name: 'Save this session (optional)' }).isChecked()).toBe(false);
    await main.getByRole('checkbox', { name: 'Save this session (optional)' }).check();
    const input = page.getByLabel('Your message');
    const sendButton = page.getByRole('button', { name: 'Send', exact: true });
    expect(await sendButton.isDisabled()).toBe(true);
    await input.fill('   ');
    expect(await sendButton.isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    const messages = [
      'Whether to restructure my team before the next quarter.',
      'I worry about losing two senior people who built the current setup.',
      'I have avoided the conversation because I do not want to look indecisive.',
      'Honestly, I tend to decide alone and announce it afterwards.',
      'I could ask the two of them to design the new structure with me.',
    ];
    for (const [index, message] of messages.entries()) {
      await input.fill(message);
      if (index === 0) await input.press('Enter');
      else await sendButton.click();
      // blocked while the reply is pending
      await main.getByText('The Mirror is reflecting…').waitFor();
      expect(await input.inputValue()).toBe('');
      await input.fill('another one');
      expect(await sendButton.isDisabled()).toBe(true);
      await input.fill('');
      if (index === 1) await shots(page, 'mirror-pending');
      if (index < messages.length - 1) await main.getByText(`${index + 1}/5 exchanges`).waitFor({ timeout: 15_000 });
    }
    await main.getByText('Complete', { exact: true }).waitFor({ timeout: 15_000 });
    await main.getByText('Demo complete! Ready to continue your journey?').waitFor();
    expect(await page.getByLabel('Your message').count()).toBe(0);
    const log = page.getByRole('log', { name: 'Conversation with the Mirror' });
    expect(await log.getByRole('listitem').count()).toBe(11);
    expect(await page.getByRole('link', { name: 'Contact Us' }).getAttribute('href')).toBe('/contact');
    await shots(page, 'mirror-complete');

    await page.getByRole('button', { name: 'Take Leadership Assessment' }).click();
    const form = page.getByRole('form', { name: 'Save Your Mirror Session' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Save and continue' }).click();
    await form.getByText('Please enter a valid email address').waitFor();
    await form.getByText('Please enter your name').waitFor();
    expect(await form.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Name').fill('Dana Whitfield');
    expect(await form.getByText('Please enter your name').count()).toBe(0);
    await form.getByRole('button', { name: 'Save and continue' }).click();
    await form.getByText('Please enter a valid email address').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shots(page, 'mirror-save-form');
    expect(problems.errors).toEqual([]);

    const email = `mirror-standalone-${Date.now()}@example.com`;
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Save and continue' }).click();
    const savedTitle = page.getByRole('dialog').locator('h2').first();
    await savedTitle.waitFor({ timeout: 10_000 });
    // the saved lead is a known session: the assessment skips its capture step
    await expect.poll(() => savedTitle.innerText()).not.toBe('Welcome');
    const lead = await server.pool.query('SELECT lead_id, name FROM leads WHERE email = $1', [email]);
    expect(lead.rows[0]?.name).toBe('Dana Whitfield');
    // the saved conversation is kept with the lead, for the coach's page of it
    const kept = await server.pool.query<{ messages: number }>(
      'SELECT (SELECT count(*)::int FROM mirror_messages m WHERE m.session_id = s.id) AS messages FROM mirror_sessions s WHERE s.lead_id = $1 AND s.saved',
      [lead.rows[0].lead_id],
    );
    expect(kept.rows).toHaveLength(1);
    expect(kept.rows[0]!.messages).toBeGreaterThanOrEqual(10);
    await context.close();

    // the coach finds it in the admin's Mirror Sessions, linked to the lead, and reads it on the lead's page
    const signedIn = await signedInAdminState(browser, server.url, server.pool, `coach-mirror-${Date.now()}@example.com`);
    const admin = await openAdminPage(browser, signedIn);
    await admin.page.goto(`${server.url}/admin/mirror-sessions`);
    await admin.page.getByRole('heading', { level: 1, name: 'Mirror Sessions' }).waitFor();
    await admin.page.getByRole('button', { name: 'Saved only' }).click();
    const card = admin.page.getByRole('article').filter({ hasText: email });
    expect(await card.locator('blockquote').innerText()).toBe(messages[0]);
    await card.getByText('Read the conversation').click();
    await card.getByRole('list', { name: 'Conversation' }).getByText(messages[4]!).waitFor();
    expect(await axeViolations(admin.page)).toEqual([]);
    await card.getByRole('link', { name: /Dana Whitfield/ }).click();
    await admin.page.waitForURL(new RegExp(`/admin/leads/${lead.rows[0].lead_id}$`));
    await admin.page
      .getByRole('list', { name: /^Mirror session of/ })
      .getByText(messages[2]!)
      .waitFor();
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  }, 120_000);

  it('the Mirror save form offers Continue without saving, which opens the assessment', async () => {
    const { context, page } = await openPage(browser, MOBILE);
    await page.goto(`${server.url}/mirror`);
    await page.getByRole('heading', { level: 1, name: 'Mirror Demo' }).waitFor();
    const input = page.getByLabel('Your message');
    for (let i = 1; i <= 5; i++) {
      await input.fill(`Exchange number ${i}: I am thinking about how I delegate.`);
      await input.press('Enter');
      await page
        .locator('main')
        .getByText(i < 5 ? `${i}/5 exchanges` : 'Complete', { exact: true })
        .waitFor({ timeout: 15_000 });
    }
    await page.getByRole('button', { name: 'Take Leadership Assessment' }).click();
    await page.getByRole('button', { name: 'Continue without saving' }).click();
    await expect.poll(() => page.getByRole('dialog').locator('h2').first().innerText(), { timeout: 10_000 }).toBe('Welcome');
    await context.close();
  }, 120_000);
});
