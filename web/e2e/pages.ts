import type pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createAdmin } from '#server/auth/admin-users.js';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

/** What went wrong in a page: uncaught errors and console errors (CSP refusals land there too). */
export interface PageProblems {
  errors: string[];
}

/** A new page in a fresh context, with its uncaught errors and console errors collected. */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport, isMobile: viewport.width < 768, hasTouch: viewport.width < 768 });
  const page = await context.newPage();
  const problems: PageProblems = { errors: [] };
  page.on('pageerror', (error) => problems.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.errors.push(`console: ${message.text()}`);
  });
  return { context, page, problems };
}

/** The visible toast with this text (toasts are also echoed into a screen-reader-only live region). */
export function toast(page: Page, text: string) {
  return page.locator('[data-toast]').filter({ hasText: text });
}

export const ADMIN_PASSWORD = 'a long and correct passphrase';

/** Signs in through the real sign-in page, which sends an admin on to the admin area (/admin unless `next` names another admin page). */
export async function signInThroughPage(page: Page, url: string, email: string, password = ADMIN_PASSWORD) {
  await page.goto(`${url}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${url}/admin`);
}

/**
 * Creates an admin in the server's database and signs in through the real sign-in page; returns
 * the browser state that signed-in contexts are opened from.
 */
export async function signedInAdminState(browser: Browser, url: string, pool: pg.Pool, email: string) {
  await createAdmin(pool, email, ADMIN_PASSWORD);
  const { context, page } = await openPage(browser);
  await signInThroughPage(page, url, email);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** A signed-in browser state, from signedInAdminState. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A new page in a context opened from a signed-in state, with its uncaught errors collected. */
export async function openAdminPage(browser: Browser, signedIn: StorageState, viewport: { width: number; height: number } = DESKTOP) {
  const context = await browser.newContext({
    viewport,
    storageState: signedIn,
    isMobile: viewport.width < 768,
    hasTouch: viewport.width < 768,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}
