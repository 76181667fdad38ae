import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { MOBILE, openPage } from './pages.js';
import { modal, modalTitle, openAssessment, startAssessmentServer, type AssessmentServer } from './assessment-harness.js';

/**
 * The site opened over plain http at an address other than localhost (a phone on the LAN, a
 * staging host) is not a secure context: browsers then lack crypto.randomUUID and other
 * secure-only APIs. The name site.test is mapped to loopback, so nothing leaves the machine.
 */
/** Chromium notes that COOP means nothing on an untrustworthy origin: a remark, not the site failing. */
const errorsBesidesCoop = (errors: string[]) =>
  errors.filter((error) => !error.includes('Cross-Origin-Opener-Policy header has been ignored'));

describe('the Mirror on plain http at a non-localhost address', () => {
  let browser: Browser;
  let server: AssessmentServer;
  let site: string;

  beforeAll(async () => {
    server = await startAssessmentServer();
    site = server.url.replace('127.0.0.1', 'site.test');
    browser = await launchBrowser({ args: ['--host-resolver-rules=MAP site.test 127.0.0.1'] });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('/mirror answers a message, with no error, in a context without crypto.randomUUID', async () => {
    await server.workers(['mirror', 'timers']);
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${site}/mirror`);
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, randomUUID: typeof crypto.randomUUID }))).toEqual({
      secure: false,
      randomUUID: 'undefined',
    });
    await page.getByRole('heading', { level: 1, name: 'Mirror Demo' }).waitFor();
    const main = page.locator('main');
    await page.getByLabel('Your message').fill('Whether to restructure my team before the next quarter.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await main.getByText('1/5 exchanges').waitFor({ timeout: 15_000 });
    expect(errorsBesidesCoop(problems.errors)).toEqual([]);
    await context.close();
  });

  it("the modal's Mirror sends and is answered there too", async () => {
    await server.workers(['mirror', 'timers']);
    const { context, page, problems } = await openPage(browser, MOBILE);
    await openAssessment(page, `${site}/`, 'Try the Decision Mirror');
    const dialog = modal(page);
    await dialog.getByLabel('Name').fill('Sam Rivera');
    await dialog.getByLabel('Email').fill(`insecure-${Date.now()}@example.com`);
    await dialog.getByRole('button', { name: 'Start the Mirror' }).click();
    await modalTitle(page).filter({ hasText: 'Decision Mirror' }).waitFor();
    await dialog.getByLabel('Your message').fill('Whether to promote my strongest engineer to lead the team.');
    await dialog.getByLabel('Your message').press('Enter');
    await dialog.getByText('1/5 exchanges', { exact: true }).waitFor({ timeout: 20_000 });
    expect(errorsBesidesCoop(problems.errors)).toEqual([]);
    await context.close();
  });
});
