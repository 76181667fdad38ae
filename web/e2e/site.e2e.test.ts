import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openPage } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

/** Every public page of this slice, with the product's words that must be on it. */
const PAGES: Array<{ path: string; status?: number; title: RegExp; h1: RegExp; texts: string[] }> = [
  {
    path: '/',
    title: /Free Leadership Diagnostic/,
    h1: /Lead with clarity/,
    texts: ['Take the Free Leadership Diagnostic', 'The Decision Mirror'],
  },
  { path: '/survey', title: /Free Leadership Diagnostic/, h1: /Lead with clarity/, texts: ['Take the Free Leadership Diagnostic'] },
  {
    path: '/about',
    title: /^About/,
    h1: /sat in the chair/,
    texts: ['The story', 'Core values', 'Take the Free Diagnostic', 'Try the Decision Mirror'],
  },
  {
    path: '/services',
    title: /^Services/,
    h1: /Coaching that meets you/,
    texts: [
      'Take Free Assessment',
      '1:1 Leadership Coaching',
      'Team Leadership Development',
      'Organizational Leadership',
      'Leadership Workshops',
      'Most Popular',
      '3-12 months',
      '6-18 months',
      '12-24 months',
      '1-3 days',
      'Take Assessment',
      'Take the Free Leadership Diagnostic',
      'Not sure yet? Contact us.',
    ],
  },
  { path: '/contact', title: /^Contact/, h1: /Let's talk/, texts: ['Company/Organization', 'Send Message'] },
  { path: '/auth', title: /^Sign in/, h1: /^Welcome Back$/, texts: ['Sign in to access your dashboard', 'Back to Home'] },
  {
    path: '/payment-success',
    title: /^Payment Successful/,
    h1: /^Payment Successful$/,
    texts: ['$250 refundable deposit has been received', 'a receipt is on its way', 'Return Home'],
  },
  {
    path: '/payment-canceled',
    title: /^Checkout canceled/,
    h1: /Checkout canceled/,
    texts: ['Your checkout was canceled. You can restart the process anytime.', 'Back to Home'],
  },
  // an unknown page is a real 404 for crawlers, with the same shell for people
  { path: '/no/such/page', status: 404, title: /^Page not found/, h1: /^Oops! Page not found$/, texts: ['Return to Home'] },
];

async function mainText(page: Page): Promise<string> {
  return ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
}

describe('the public site in a real browser', () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ privatePrefix: true, logLevel: 'warn' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`renders every page at ${viewport.width} px with its spec texts, no errors and no axe violations`, async () => {
      const { context, page, problems } = await openPage(browser, viewport);
      for (const target of PAGES) {
        const before = problems.errors.length;
        const response = await page.goto(`${server.url}${target.path}`);
        expect(response?.status(), target.path).toBe(target.status ?? 200);
        // Chromium logs the document's own 404 as a console error; that one is intended
        if (target.status === 404) {
          const own = problems.errors.indexOf(
            'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
            before,
          );
          expect(own, target.path).toBeGreaterThanOrEqual(0);
          problems.errors.splice(own, 1);
        }
        const h1 = page.getByRole('heading', { level: 1 });
        await h1.waitFor();
        expect(await h1.innerText(), target.path).toMatch(target.h1);
        await expect.poll(() => page.title(), { message: target.path }).toMatch(target.title);
        const text = await mainText(page);
        for (const wanted of target.texts) expect(text, `${target.path}: ${wanted}`).toContain(wanted);
        // landmarks: one banner with the main navigation, one main, one contentinfo
        expect(await page.getByRole('banner').count(), target.path).toBe(1);
        expect(await page.getByRole('navigation', { name: 'Main' }).count(), target.path).toBe(1);
        expect(await page.getByRole('main').count(), target.path).toBe(1);
        expect(await page.getByRole('contentinfo').count(), target.path).toBe(1);
        expect(await axeViolations(page), target.path).toEqual([]);
      }
      expect(problems.errors).toEqual([]);
      await context.close();
    });
  }

  it('shows the seven social links and the two home anchors', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(server.url);
    await page.locator('#lead-magnets').waitFor();
    await page.locator('#mirror-demo').waitFor();
    const footerLinks = page.getByRole('contentinfo').locator('a[target="_blank"]');
    expect(await footerLinks.count()).toBe(7);
    const names = await footerLinks.evaluateAll((links) => links.map((link) => link.textContent?.trim()));
    expect(names).toEqual(
      ['YouTube', 'LinkedIn', 'Community', 'X', 'Facebook', 'Instagram', 'TikTok'].map((name) => `${name} (opens in a new tab)`),
    );
    for (const link of await footerLinks.all()) expect(await link.getAttribute('rel')).toContain('noopener');
    await context.close();
  });

  it('navigates with the bar, and the services and about buttons land on the home anchors', async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(server.url);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [name, path] of [
      ['About', '/about'],
      ['Services', '/services'],
      ['Contact', '/contact'],
      ['Home', '/'],
    ] as const) {
      await nav.getByRole('link', { name, exact: true }).click();
      await page.waitForURL(`${server.url}${path}`);
      await expect.poll(() => nav.getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
    }

    await page.goto(`${server.url}/services`);
    await page.getByRole('link', { name: 'Take Assessment', exact: true }).click();
    await page.waitForURL(`${server.url}/#lead-magnets`);
    await expect.poll(() => page.locator('#lead-magnets').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(200);

    await page.goto(`${server.url}/about`);
    await page.getByRole('link', { name: 'Try the Decision Mirror' }).click();
    await page.waitForURL(`${server.url}/#mirror-demo`);
    await expect.poll(() => page.locator('#mirror-demo').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(200);

    for (const name of ['Contact Us', 'Not sure yet? Contact us.']) {
      await page.goto(`${server.url}/services`);
      await page.getByRole('link', { name, exact: true }).first().click();
      await page.waitForURL(`${server.url}/contact`);
    }
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('opens the assessment from every call to action (its dialog shows, with its title)', async () => {
    const ctas: Array<{ path: string; name: string; link?: boolean; mobile?: boolean }> = [
      { path: '/', name: 'Free Assessment' },
      { path: '/', name: 'Take the Free Assessment' },
      { path: '/', name: 'Take the Free Leadership Diagnostic' },
      { path: '/', name: 'Try the Decision Mirror' },
      { path: '/', name: 'Start Your Free Assessment' },
      { path: '/survey', name: 'Take the Free Assessment' },
      { path: '/about', name: 'Take the Free Diagnostic', link: true },
      { path: '/about', name: 'Try the Decision Mirror', link: true },
      { path: '/services', name: 'Take Free Assessment', link: true },
      { path: '/services', name: 'Take Assessment', link: true },
      { path: '/services', name: 'Take the Free Leadership Diagnostic', link: true },
      { path: '/', name: 'Take the Free Assessment', mobile: true },
    ];
    for (const cta of ctas) {
      const { context, page, problems } = await openPage(browser, cta.mobile ? MOBILE : DESKTOP);
      await page.goto(`${server.url}${cta.path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      // the dialog's own box has no height (its panel is fixed): its title shows it is open. Not the
      // modal's code arriving: the page preloads it when idle, before any click
      const opened = page
        .getByRole('dialog')
        .getByRole('heading')
        .first()
        .waitFor({ timeout: 10_000 })
        .then(
          () => true,
          () => false,
        );
      if (cta.mobile) {
        // what the page could not fetch, told with a failure (the case once timed out in CI unexplained)
        const failed: string[] = [];
        page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
        await page.getByRole('button', { name: 'Open menu' }).click();
        // the tap comes before the page is live; the menu opens once it is
        await page
          .getByRole('button', { name: 'Close menu' })
          .waitFor()
          .catch((error: Error) => {
            throw new Error(
              `${error.message}\npage errors: ${JSON.stringify(problems.errors)}\nfailed requests: ${JSON.stringify(failed)}`,
            );
          });
      }
      await page
        .getByRole(cta.link ? 'link' : 'button', { name: cta.name, exact: true })
        .filter({ visible: true })
        .first()
        .click();
      expect(await opened, `${cta.path} ${cta.name}`).toBe(true);
      expect(problems.errors, `${cta.path} ${cta.name}`).toEqual([]);
      await context.close();
    }
  });

  it('has a skip link that moves focus to the main content', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${server.url}/services`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await context.close();
  });

  it('opens the mobile menu at 390 px by mouse and keyboard, closes it with Escape and navigates from it', async () => {
    const { context, page, problems } = await openPage(browser, MOBILE);
    await page.goto(server.url);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // the desktop links are hidden below 768 px
    expect(await nav.getByRole('link', { name: 'About', exact: true }).isVisible()).toBe(false);

    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const closed = await toggle.boundingBox();
    await toggle.click();
    const closeToggle = page.getByRole('button', { name: 'Close menu' });
    expect(await closeToggle.getAttribute('aria-expanded')).toBe('true');
    // the close button sits exactly where the open button was
    expect(await closeToggle.boundingBox()).toEqual(closed);
    const menu = page.locator(`#${await closeToggle.getAttribute('aria-controls')}`);
    await menu.getByRole('link', { name: 'Home', exact: true }).waitFor();
    // focus moves into the menu; the axe rules hold with it open
    expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);

    // keyboard: Enter opens, Tab reaches the links, Enter follows one
    await page.keyboard.press('Enter');
    await menu.getByRole('link', { name: 'Services', exact: true }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Services');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/services`);
    expect(await menu.isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Contact', exact: true }).click();
    await page.waitForURL(`${server.url}/contact`);
    await page.getByRole('heading', { level: 1, name: /Let's talk/ }).waitFor();
    expect(await menu.isVisible()).toBe(false);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('shows the 404 page for an unknown path, logs the path on the server, and links home', async () => {
    const { context, page } = await openPage(browser);
    const missing = `/no/such/page-${Date.now()}`;
    const reports: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/client-log/not-found') && reports.push(request.url()));
    await page.goto(`${server.url}${missing}?from=newsletter`);
    await page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).waitFor();
    await expect
      .poll(() => server.logs.find((line) => line.msg === 'page not found' && line.missingPath === `${missing}?from=newsletter`))
      .toBeTruthy();

    await page.getByRole('main').getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { level: 1, name: /Lead with clarity/ }).waitFor();
    // the server answered the 404 and logged it; the page, once live, did not report it again
    expect(reports).toEqual([]);
    expect(server.logs.filter((line) => line.msg === 'page not found' && line.missingPath === `${missing}?from=newsletter`)).toHaveLength(
      1,
    );
    await context.close();
  });

  it('keeps motion off for visitors who ask for reduced motion', async () => {
    const context = await browser.newContext({ viewport: MOBILE, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const duration = await page.locator('.animate-menu-in').evaluate((el) => getComputedStyle(el).animationDuration);
    expect(parseFloat(duration)).toBeLessThan(0.001);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
    await context.close();
  });
});
