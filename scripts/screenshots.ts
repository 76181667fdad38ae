/*
 * npm run screenshots [-- --out docs/screenshots --parts]
 *
 * Serves the built site (web/dist: run `npx vite build --config web/vite.config.ts` first) with
 * the real server on a database of its own, and saves a PNG of every public page at 390 px and
 * 1280 px wide into --out (default docs/screenshots, where the README's images come from), plus
 * the phone menu opened. With --parts, each page is also cut into screen-high slices under
 * <out>/parts, easier to look at closely than one tall image. It is for a person to look at: it
 * asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { loadConfig } from '#core/config/index.js';
import { createPool } from '#core/db/pool.js';
import { createRedis } from '#core/redis.js';
import { launchBrowser } from '#e2e/browser.js';
import { buildApp } from '#server/app.js';
import { benchServices } from './bench/services.js';
import { ROOT } from './services/child.js';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(ROOT, 'docs', 'screenshots') },
    parts: { type: 'boolean', default: false },
  },
});
const OUT = path.resolve(args.out);
const WEB_ROOT = path.join(ROOT, 'web', 'dist');

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
const screenHeight = (width: number) => (width < 768 ? 844 : 800);

/** The page in screen-high slices, as <out>/parts/<name>-<width>-<n>.png. */
async function slices(page: Page, name: string, width: number) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const slice = screenHeight(width);
  for (let top = 0, part = 1; top < height; top += slice, part++) {
    await page.screenshot({
      path: path.join(OUT, 'parts', `${name}-${width}-${part}.png`),
      fullPage: true,
      clip: { x: 0, y: top, width, height: Math.min(slice, height - top) },
    });
  }
}

if (!existsSync(path.join(WEB_ROOT, 'index.html'))) {
  process.stderr.write('No built site in web/dist: run `npx vite build --config web/vite.config.ts` first.\n');
  process.exit(1);
}
mkdirSync(args.parts ? path.join(OUT, 'parts') : OUT, { recursive: true });

const cleanups: Array<() => Promise<unknown>> = [];
try {
  const runId = randomBytes(4).toString('hex');
  const { databaseUrl, redisUrl } = await benchServices(`hf_screenshots_${runId}`, cleanups);
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
    },
    { isTTY: false },
  );
  const pool = createPool(config.DATABASE_URL!, 4);
  const redis = createRedis(config.REDIS_URL!, 'producer');
  const app = await buildApp({
    config: { ...config, QUEUE_PREFIX: `hf-screenshots-${runId}` },
    pool,
    redis,
    logger: false,
    webRoot: WEB_ROOT,
  });
  cleanups.push(async () => {
    await app.close();
    await pool.end();
    redis.disconnect();
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });

  const browser = await launchBrowser();
  cleanups.push(() => browser.close());
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: screenHeight(width) },
      deviceScaleFactor: 1,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    for (const [name, pagePath] of PAGES) {
      await page.goto(`${base}${pagePath}`);
      await page.locator('h1').first().waitFor();
      await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
      if (args.parts) await slices(page, name, width);
    }
    if (width < 768) {
      await page.goto(base);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.screenshot({ path: path.join(OUT, `menu-open-${width}.png`) });
    }
    await context.close();
  }
  process.stdout.write(`Saved the screenshots of ${PAGES.length} pages at ${WIDTHS.join(' and ')} px into ${OUT}\n`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
