import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRADING_RULES, type GradeInput } from '#machines/grading/index.js';
import { REGRADE_INPUTS, seedRegradableLead } from '#test/regradable-leads.js';
import { startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { MOBILE, openAdminPage, signedInAdminState, toast, type StorageState } from './pages.js';

const SHOTS = '/tmp/shots-grading';

/*
 * A database of its own: Apply re-grades every lead in the scope tried (here every lead but the
 * test leads), so no other file's leads may be in it.
 */
describe('the grading rules screen in a real browser', () => {
  let browser: Browser;
  let server: AssessmentServer;
  let signedIn: StorageState;
  const seeded: Record<string, { leadId: string; email: string }> = {};

  const seedGraded = async (input: GradeInput | null) => {
    const { leadId, email } = await seedRegradableLead(server.pool, input);
    return { leadId, email };
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startAssessmentServer();
    browser = await launchBrowser();
    signedIn = await signedInAdminState(browser, server.url, server.pool, `grading-e2e-${Date.now()}@example.com`);
    seeded.ready = await seedGraded(REGRADE_INPUTS.ready);
    seeded.urgent = await seedGraded(REGRADE_INPUTS.urgent);
    seeded.validating = await seedGraded(REGRADE_INPUTS.validating);
    seeded.unstored = await seedGraded(null);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The tier the leads table shows for a lead. */
  async function tierOnLeadsPage(page: Page, lead: { leadId: string; email: string }) {
    await page.goto(`${server.url}/admin/leads?q=${encodeURIComponent(lead.email)}`);
    const row = page.locator(`[data-lead="${lead.leadId}"]`);
    await row.waitFor();
    return (await row.locator('td').nth(3).textContent())?.trim();
  }

  /** The whole page from its top (the fixed bar and sidebar are drawn where the page is scrolled to). */
  async function fullPageShot(page: Page, path: string) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path, fullPage: true });
  }

  /** Lowers the book_call threshold to 65 and tries it on every past lead. */
  async function tryLowerBookCall(page: Page) {
    const bookCall = page.getByLabel('Book call from a total of', { exact: true });
    expect(await bookCall.inputValue()).toBe('70');
    await bookCall.fill('65');
    await page.getByRole('button', { name: 'Try on past leads' }).click();
    await page.getByRole('heading', { name: 'What these rules would change' }).waitFor();
  }

  it('lowers the book_call threshold, sees who moves, applies it, sees the tier on the leads page, and undoes it', async () => {
    const { context, page, errors } = await openAdminPage(browser, signedIn);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Grading rules' }).click();
    await page.waitForURL(`${server.url}/admin/grading`);
    await page.getByRole('heading', { level: 1, name: 'Grading rules' }).waitFor();
    const inForce = page.getByRole('list', { name: 'Rules in force' });
    await inForce.getByText('Book call from a total of 70').waitFor();
    await inForce.getByText('The diagnostic weighs 35% of the total').waitFor();
    expect(await page.getByTestId('version-in-force').textContent()).toBe('grading-1.0.0');
    expect(await page.getByRole('button', { name: 'Undo last change' }).count()).toBe(0);
    const apply = page.getByRole('button', { name: 'Apply these rules' });

    // a weight that breaks the sum is refused in the browser, beside the weights
    await page.getByLabel('Diagnostic (%)').fill('50');
    await page.getByRole('button', { name: 'Try on past leads' }).click();
    await page.getByText('The three part weights must add up to 1').waitFor();
    await page.getByLabel('Diagnostic (%)').fill('35');

    await tryLowerBookCall(page);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('grading-report-heading');
    const movers = page.getByRole('table', { name: 'Leads who would change tier' });
    const mover = movers.locator(`[data-mover="${seeded.ready!.leadId}"]`);
    await mover.waitFor();
    expect(await mover.getByRole('link', { name: 'Test Lead' }).getAttribute('href')).toBe(`/admin/leads/${seeded.ready!.leadId}`);
    expect(await mover.textContent()).toContain('67 → 67');
    expect(await movers.locator('[data-mover]').count()).toBe(1);
    expect(await page.locator('[data-move="homework-book_call"]').textContent()).toBe('1');
    expect(await page.locator('[data-move="book_call-book_call"]').textContent()).toBe('1');
    expect(await page.locator('[data-move="nurture-nurture"]').textContent()).toBe('1');
    await page.getByText('Graded before answers were kept, so they keep their result.').waitFor();
    expect(await apply.isEnabled()).toBe(true);
    // beside Apply: the leads it will re-grade, the try's scope and count
    expect(await page.locator('#grading-apply-hint').textContent()).toContain(
      'Applies to the 4 leads this try considered: any tier, any source, signed up any time, test leads left out.',
    );
    await page.getByRole('region', { name: 'Try on past leads' }).screenshot({ path: `${SHOTS}/try-1280.png` });
    await fullPageShot(page, `${SHOTS}/dry-run-1280.png`);
    expect(await axeViolations(page)).toEqual([]);

    await apply.click();
    const dialog = page.getByRole('dialog', { name: 'Apply these rules?' });
    await dialog.getByText('To the 4 leads the try considered', { exact: false }).waitFor();
    await dialog.getByLabel(/Note for the history/).fill('Lower the bar for the spring cohort');
    await page.screenshot({ path: `${SHOTS}/apply-dialog-1280.png` });
    await dialog.getByRole('button', { name: 'Apply these rules' }).click();
    await toast(page, 'Rules applied').waitFor();
    await page.getByTestId('version-in-force').filter({ hasText: 'grading-2' }).waitFor();
    await inForce.getByText('Book call from a total of 65').waitFor();
    const history = page.getByRole('list', { name: 'Rules applied, latest first' });
    await history.getByText('Note: Lower the bar for the spring cohort').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'grading-in-force');
    await fullPageShot(page, `${SHOTS}/applied-1280.png`);
    expect(await axeViolations(page)).toEqual([]);

    expect(await tierOnLeadsPage(page, seeded.ready!)).toBe('Book call');
    expect(await tierOnLeadsPage(page, seeded.validating!)).toBe('Nurture');

    await page.goto(`${server.url}/admin/grading`);
    await page.getByRole('button', { name: 'Undo last change' }).click();
    const undo = page.getByRole('dialog', { name: 'Undo the last change?' });
    await undo.getByText('grading-1.0.0', { exact: true }).waitFor();
    await undo.getByRole('button', { name: 'Restore grading-1.0.0' }).click();
    await toast(page, 'Change undone').waitFor();
    await page.getByTestId('version-in-force').filter({ hasText: 'grading-1.0.0' }).waitFor();
    await history.getByText(/Undo of application \d+/).waitFor();
    expect(await tierOnLeadsPage(page, seeded.ready!)).toBe('Homework');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('downloads the rules as a file; an uploaded file fills the form, or lists its problems', async () => {
    const { context, page, errors } = await openAdminPage(browser, signedIn);
    await page.goto(`${server.url}/admin/grading`);
    await page.getByRole('heading', { level: 1, name: 'Grading rules' }).waitFor();

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download these rules' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('grading-rules-grading-1.0.0.json');
    expect(JSON.parse(readFileSync(await download.path(), 'utf8'))).toEqual(DEFAULT_GRADING_RULES);

    const upload = page.getByLabel('Upload a rules file');
    const file = (name: string, rules: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(rules)) });
    await upload.setInputFiles(file('bad.json', { ...DEFAULT_GRADING_RULES, thresholds: { bookCall: 40, homework: 60 } }));
    await page.getByText('bad.json cannot be used:').waitFor();
    await page.getByText('thresholds: The homework threshold cannot be above the book_call threshold').waitFor();
    expect(await page.getByLabel('Book call from a total of', { exact: true }).inputValue()).toBe('70');

    await upload.setInputFiles(
      file('spring.json', { ...DEFAULT_GRADING_RULES, partWeights: { diagnostic: 0.4, survey: 0.3, mirror: 0.3 } }),
    );
    await page.getByText('spring.json filled the form.').waitFor();
    expect(await page.getByLabel('Diagnostic (%)').inputValue()).toBe('40');
    expect(await page.getByText('bad.json cannot be used:').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Apply these rules' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lays the screen and a dry run out at 390 px without sideways scrolling', async () => {
    const { context, page, errors } = await openAdminPage(browser, signedIn, MOBILE);
    await page.goto(`${server.url}/admin/grading`);
    await page.getByRole('heading', { level: 1, name: 'Grading rules' }).waitFor();
    await tryLowerBookCall(page);
    await page.locator(`[data-mover="${seeded.ready!.leadId}"]`).waitFor();
    await page.getByRole('region', { name: 'Try on past leads' }).screenshot({ path: `${SHOTS}/try-390.png` });
    await page.getByRole('region', { name: 'Rules in force' }).screenshot({ path: `${SHOTS}/in-force-390.png` });
    await page.getByRole('region', { name: 'History' }).screenshot({ path: `${SHOTS}/history-390.png` });
    await fullPageShot(page, `${SHOTS}/dry-run-390.png`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
