/*
 * SCREENSHOTS=1 npx vitest run web/e2e/screenshots.e2e.test.ts
 * Saves a PNG of every public page at 390 px and 1280 px wide into SHOTS_DIR (default /tmp/shots),
 * for a person to look at. Skipped in a normal run: it asserts nothing a reviewer's eye doesn't.
 */
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { startTestServer, type TestServer } from './server.js';

const DIR = process.env.SHOTS_DIR ?? '/tmp/shots';
const PAGES: Array<[name: string, path: string]> = [
  ['home', '/'],
  ['about', '/about'],
  ['services', '/services'],
  ['contact', '/contact'],
  ['auth', '/auth'],
  ['payment-success', '/payment-success'],
  ['payment-canceled', '/payment-canceled'],
  ['not-found', '/no/such/page'],
];
const WIDTHS = [390, 1280];

describe.skipIf(!process.env.SCREENSHOTS)('screenshots of every page', () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    mkdirSync(`${DIR}/parts`, { recursive: true });
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const width of WIDTHS) {
    it(`at ${width} px`, async () => {
      const context = await browser.newContext({
        viewport: { width, height: width < 768 ? 844 : 800 },
        deviceScaleFactor: 1,
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      for (const [name, path] of PAGES) {
        await page.goto(`${server.url}${path}`);
        await page.locator('h1').first().waitFor();
        await page.screenshot({ path: `${DIR}/${name}-${width}.png`, fullPage: true });
        // the same page in screen-high slices, easier to look at closely than one tall image
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        const slice = width < 768 ? 844 : 800;
        for (let top = 0, part = 1; top < height; top += slice, part++) {
          await page.screenshot({
            path: `${DIR}/parts/${name}-${width}-${part}.png`,
            fullPage: true,
            clip: { x: 0, y: top, width, height: Math.min(slice, height - top) },
          });
        }
      }
      if (width < 768) {
        await page.goto(server.url);
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.screenshot({ path: `${DIR}/menu-open-${width}.png` });
      }
      await context.close();
    });
  }
});
