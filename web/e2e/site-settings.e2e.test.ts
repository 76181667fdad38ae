import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import { seedResultsFlow } from '#test/flows.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { modal, modalTitle, openAssessment, startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { MOBILE, openAdminPage, openPage, signedInAdminState, toast, type StorageState } from './pages.js';

const SHOTS = '/tmp/shots-site-settings';

/*
 * A database of its own (the settings and the booking page are one row each for the whole site):
 * what the coach saves here changes no other test's pages.
 */
const COMMUNITY = 'https://community.example.com/leaders';
const LINKEDIN = 'https://www.linkedin.com/in/dana-whitfield';
const COACH_EMAIL = 'dana@coach.example.com';
const BOOKING = 'https://cal.example.com/dana/strategy-session';

describe('site settings in a real browser', () => {
  let browser: Browser;
  let server: AssessmentServer;
  let signedIn: StorageState;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startAssessmentServer();
    browser = await launchBrowser();
    signedIn = await signedInAdminState(browser, server.url, server.pool, `site-settings-e2e-${Date.now()}@example.com`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The href of the platform's link in the footer and in the home page's social section. */
  const socialHrefs = async (page: Page, label: string) => ({
    footer: await page
      .locator('footer')
      .getByRole('link', { name: `${label} (opens in a new tab)` })
      .getAttribute('href'),
    home: await page
      .getByRole('main')
      .getByRole('link', { name: new RegExp(`^${label} \\(opens in a new tab\\)`) })
      .getAttribute('href'),
  });

  /** A fresh visitor's home page, as the server drew it (the settings come with the page: no GET /api/config). */
  async function visitorHome() {
    const opened = await openPage(browser);
    const configRequests: string[] = [];
    opened.page.on('request', (request) => request.url().endsWith('/api/config') && configRequests.push(request.url()));
    await opened.page.goto(server.url, { waitUntil: 'networkidle' });
    await opened.page.getByRole('heading', { name: 'Keep learning where you already spend your time.' }).waitFor();
    expect(configRequests).toEqual([]);
    return opened;
  }

  it("the coach's community page, social link and email reach a fresh visitor's pages, with no rebuild", async () => {
    // before: the defaults
    const before = await visitorHome();
    const linkedIn = DEFAULT_SITE_SETTINGS.socialLinks.professional;
    expect(await socialHrefs(before.page, 'LinkedIn')).toEqual({ footer: linkedIn, home: linkedIn });
    await before.context.close();

    const { context, page, errors } = await openAdminPage(browser, signedIn);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Site settings' }).click();
    await page.waitForURL(`${server.url}/admin/settings`);
    await page.getByRole('heading', { level: 1, name: 'Site settings' }).waitFor();
    const community = page.getByLabel('Community page URL');
    expect(await community.inputValue()).toBe(DEFAULT_SITE_SETTINGS.communityUrl);

    // refused field by field, nothing stored
    await community.fill('http://community.example.com');
    await page.getByLabel('Email').fill('dana-at-coach');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Some fields need a change').waitFor();
    await page.getByText('Expected an https:// address (http:// only for localhost).').waitFor();
    await page.getByText('Please enter a valid email address').waitFor();
    expect(await community.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-communityUrl');
    expect((await server.pool.query('SELECT 1 FROM site_settings')).rowCount).toBe(0);

    await community.fill(COMMUNITY);
    expect(await community.getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('LinkedIn').fill(LINKEDIN);
    await page.getByLabel('TikTok').fill('');
    await page.getByLabel('Name', { exact: true }).fill('Dana Whitfield');
    await page.getByLabel('Email').fill(COACH_EMAIL);
    await page.getByLabel('Phone').fill('+44 20 7946 0958');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Settings saved').waitFor();
    const stored = await server.pool.query('SELECT settings FROM site_settings');
    expect(stored.rows[0].settings).toMatchObject({
      communityUrl: COMMUNITY,
      socialLinks: { professional: LINKEDIN, tiktok: null },
      contact: { name: 'Dana Whitfield', email: COACH_EMAIL, phone: '+44 20 7946 0958', location: null },
    });
    await page.screenshot({ path: `${SHOTS}/settings-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();

    // a new visitor, the same build: the new addresses, TikTok hidden
    const after = await visitorHome();
    expect(await socialHrefs(after.page, 'LinkedIn')).toEqual({ footer: LINKEDIN, home: LINKEDIN });
    expect(await after.page.getByRole('link', { name: /TikTok/ }).count()).toBe(0);
    await after.page.goto(`${server.url}/contact`);
    await after.page.getByRole('heading', { name: 'Prefer to write directly?' }).waitFor();
    expect(await after.page.getByRole('link', { name: COACH_EMAIL }).getAttribute('href')).toBe(`mailto:${COACH_EMAIL}`);
    expect(await after.page.getByRole('link', { name: '+44 20 7946 0958' }).getAttribute('href')).toBe('tel:+442079460958');
    await after.page.screenshot({ path: `${SHOTS}/contact-1280.png`, fullPage: true });
    expect(after.problems.errors).toEqual([]);
    await after.context.close();

    // a nurture lead's next step links the community the coach set
    const seeded = await seedResultsFlow(server.pool, 'nurture');
    const lead = await openPage(browser, MOBILE);
    await lead.context.addCookies([{ name: VISITOR_COOKIE, value: seeded.visitorCookie, url: `${server.url}/api/` }]);
    await lead.page.goto(server.url);
    await lead.page.evaluate(() => localStorage.setItem('enableTestingMode', 'false'));
    await openAssessment(lead.page, server.url);
    await modalTitle(lead.page).filter({ hasText: 'Welcome Back' }).waitFor();
    await modal(lead.page).getByRole('button', { name: 'Explore Free Resources' }).click();
    await modalTitle(lead.page).filter({ hasText: 'Join the Community' }).waitFor();
    expect(
      await modal(lead.page)
        .getByRole('link', { name: /Join the Free Community/ })
        .getAttribute('href'),
    ).toBe(COMMUNITY);
    expect(lead.problems.errors).toEqual([]);
    await lead.context.close();
  });

  it('the Overview warns while no booking page is set, and stops once one is saved in Integrations', async () => {
    await server.pool.query("DELETE FROM integration_settings WHERE key = 'scheduling'");
    const { context, page, errors } = await openAdminPage(browser, signedIn);
    const notice = page.locator('[data-notice="no-booking-page"]');
    await page.goto(`${server.url}/admin`);
    await notice.getByText('No booking page set:').waitFor();
    await page.screenshot({ path: `${SHOTS}/overview-warning-1280.png` });

    await notice.getByRole('link', { name: 'Set it in Integrations' }).click();
    await page.waitForURL(`${server.url}/admin/integrations`);
    const card = page.locator('[data-integration="scheduling"]');
    await card.getByRole('switch').click();
    await card.getByLabel('Booking URL').fill(BOOKING);
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Configuration Saved').waitFor();

    const settingsRead = page.waitForResponse((response) => response.url().endsWith('/api/admin/site-settings'));
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await settingsRead;
    await page.locator('[data-counter="totalLeads"] dd').filter({ hasText: /\d/ }).waitFor();
    expect(await notice.count()).toBe(0);

    // the settings page shows where visitors book now
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Site settings' }).click();
    expect(
      await page
        .getByRole('region', { name: 'Booking page' })
        .getByRole('link', { name: new RegExp(BOOKING) })
        .getAttribute('href'),
    ).toBe(BOOKING);
    expect(await notice.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lays the settings page out at 390 px without sideways scrolling', async () => {
    const { context, page, errors } = await openAdminPage(browser, signedIn, MOBILE);
    await page.goto(`${server.url}/admin/settings`);
    await page.getByLabel('Community page URL').waitFor();
    await page.screenshot({ path: `${SHOTS}/settings-390.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
