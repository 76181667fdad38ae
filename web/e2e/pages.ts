import type { Browser, BrowserContext, Page } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

/** What went wrong in a page: uncaught errors and console errors (CSP refusals land there too). */
export interface PageProblems {
  errors: string[];
}

/** A new page in a fresh context, with its uncaught errors and console errors collected. */
export async function openPage(browser: Browser, viewport: { width: number; height: number } = DESKTOP): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
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
