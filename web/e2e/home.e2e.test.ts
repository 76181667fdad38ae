import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { startTestServer } from './server.js';

describe('the site in a real browser', () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof startTestServer>>;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the home route', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(server.url);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Lead with clarity');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders the 404 page for an unknown path, with a way home', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/no/such/page`);
    await page.getByText('Oops! Page not found').waitFor();
    await page.getByRole('main').getByRole('link', { name: /home/i }).click();
    await page.waitForURL(`${server.url}/`);
    await page.close();
  });
});
