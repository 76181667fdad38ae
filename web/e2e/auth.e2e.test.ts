import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '#server/auth/admin-users.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openPage, toast } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

const PASSWORD = 'a long and correct passphrase';

async function signInWith(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

describe('sign-in in a real browser', () => {
  let browser: Browser;
  let server: TestServer;
  let email: string;

  beforeAll(async () => {
    // sign-in limits are per IP and per email: a prefix of its own keeps them apart from other files
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
    email = `coach-${Date.now()}@example.com`;
    await createAdmin(server.pool, email, PASSWORD);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the spec toast for a wrong password and stays on the page', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${server.url}/auth`);
    await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in'));
    await signInWith(page, email, 'not the passphrase');
    expect((await answered).status()).toBe(401);
    const error = toast(page, 'Authentication Error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Invalid email or password. Please try again.');
    expect(await error.getAttribute('data-toast')).toBe('destructive');
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await context.close();
  });

  it('refuses a short password with the spec toast, and a missing or malformed email, without calling the server', async () => {
    const { context, page } = await openPage(browser, MOBILE);
    const calls: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/auth/sign-in') && calls.push(request.method()));
    await page.goto(`${server.url}/auth`);
    await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    const password = page.getByLabel('Password');
    expect(await password.getAttribute('minlength')).toBe('6');
    expect(await password.getAttribute('required')).not.toBeNull();
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');

    await signInWith(page, email, '12345');
    const error = toast(page, 'Authentication Error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Password should be at least 6 characters long.');
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);

    await signInWith(page, '', PASSWORD);
    await page.getByText('Please enter your email address.').waitFor();
    await signInWith(page, 'coach.example.com', PASSWORD);
    await page.getByText('Please enter a valid email address').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    expect(calls).toEqual([]);
    await context.close();
  });

  it('signs in an admin: Welcome back! on /admin with the email; the site then shows the email and Sign Out; /auth then sends to /admin', async () => {
    const { context, page, problems } = await openPage(browser, DESKTOP);
    await page.goto(`${server.url}/auth`);
    await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    await signInWith(page, email.toUpperCase(), PASSWORD);
    await page.waitForURL(`${server.url}/admin`);
    await toast(page, 'Welcome back!').waitFor();
    await page.getByText(`Signed in as ${email}`).first().waitFor();

    await page.goto(`${server.url}/`);
    const banner = page.getByRole('banner');
    await banner.getByText(email).filter({ visible: true }).waitFor();
    expect(await banner.getByText(email).filter({ visible: true }).isVisible()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Sign Out' }).filter({ visible: true }).isVisible()).toBe(true);

    await page.goto(`${server.url}/auth`);
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('returns to the admin page that sent the visitor to sign in, and never to another site or a public page', async () => {
    const { context, page } = await openPage(browser, MOBILE);
    await page.goto(`${server.url}/admin/leads?q=ada`);
    await page.waitForURL(`${server.url}/auth?next=%2Fadmin%2Fleads%3Fq%3Dada`);
    await signInWith(page, email, PASSWORD);
    await page.waitForURL(`${server.url}/admin/leads?q=ada`);
    await toast(page, 'Welcome back!').waitFor();

    for (const next of ['https://evil.example/admin', '//evil.example/admin', '/contact', '/admin/../contact']) {
      await page.goto(`${server.url}/auth?next=${encodeURIComponent(next)}`);
      await page.waitForURL(`${server.url}/admin`);
    }
    await context.close();
  });

  it('signs out from the bar with the spec toast; /admin then sends to /auth', async () => {
    const { context, page } = await openPage(browser, MOBILE);
    await page.goto(`${server.url}/auth`);
    await signInWith(page, email, PASSWORD);
    await page.waitForURL(`${server.url}/admin`);
    await page.goto(`${server.url}/`);

    // on a phone the email and Sign Out live in the menu
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('banner').getByText(email).filter({ visible: true }).waitFor();
    await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).filter({ visible: true }).click();
    const signedOut = toast(page, 'Signed out');
    await signedOut.waitFor();
    expect(await signedOut.textContent()).toContain("You've been successfully signed out.");
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/auth`);
    expect(await page.getByRole('banner').getByText(email).filter({ visible: true }).count()).toBe(0);
    const session = await page.request.get(`${server.url}/api/auth/session`);
    expect((await session.json()).user).toBeNull();
    await context.close();
  });

  it('shows the sign-out failure toast and stays signed in when the server cannot sign out', async () => {
    const { context, page } = await openPage(browser, DESKTOP);
    await page.goto(`${server.url}/auth`);
    await signInWith(page, email, PASSWORD);
    await page.waitForURL(`${server.url}/admin`);
    await page.goto(`${server.url}/`);
    // the real route always succeeds (it is idempotent), so its failure is simulated here
    await page.route('**/api/auth/sign-out', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }),
      }),
    );
    await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).filter({ visible: true }).click();
    const failure = toast(page, 'Failed to sign out. Please try again.');
    await failure.waitFor();
    expect(await failure.getAttribute('data-toast')).toBe('destructive');
    expect(await page.getByRole('banner').getByText(email).filter({ visible: true }).isVisible()).toBe(true);
    await context.close();
  });
});
