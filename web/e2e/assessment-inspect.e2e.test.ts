import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modalTitle, openAssessment, startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { launchBrowser } from './browser.js';
import { openPage } from './pages.js';

/**
 * `?inspect` in a development build connects the running machines to the Stately inspector
 * (@statelyai/inspect's browser inspector, which opens stately.ai/inspect in a new window and
 * posts every inspection event to it). The network is closed here, so the inspector's page is a
 * stand-in that answers the handshake and keeps what it is sent. The production build carries no
 * inspector at all (assessment.e2e.test.ts checks the built files).
 */
const FAKE_INSPECTOR = `<!doctype html><title>inspector</title><script>
  window.received = [];
  window.addEventListener('message', (event) => window.received.push(event.data));
  window.opener && window.opener.postMessage({ type: '@statelyai.connected' }, '*');
</script>`;

let server: AssessmentServer;
let vite: ViteDevServer;
let devUrl: string;
let browser: Browser;

beforeAll(async () => {
  server = await startAssessmentServer();
  vite = await createServer({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    logLevel: 'error',
    server: { port: 5290, strictPort: false, host: '127.0.0.1', proxy: { '/api': { target: server.url, ws: true } } },
  });
  await vite.listen();
  devUrl = vite.resolvedUrls!.local[0]!.replace(/\/$/, '');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  await server?.close();
});

describe('the Stately inspector in a development build', () => {
  it('with ?inspect, the assessment flow actor is reported to the inspector window', async () => {
    const { context, page } = await openPage(browser);
    try {
      await context.route('https://stately.ai/**', (route) => route.fulfill({ contentType: 'text/html', body: FAKE_INSPECTOR }));
      await page.goto(`${devUrl}/?inspect`);
      const popup = context.waitForEvent('page');
      await openAssessment(page, `${devUrl}/?inspect`);
      const inspector = await popup;
      expect(inspector.url()).toMatch(/^https:\/\/stately\.ai\/inspect/);
      await modalTitle(page).filter({ hasText: 'Welcome' }).waitFor();
      await page.getByRole('dialog').getByLabel('Name').waitFor();
      await inspector.waitForFunction(() =>
        (window as unknown as { received: Array<{ type?: string; name?: string }> }).received.some(
          (event) => event.type === '@xstate.actor',
        ),
      );
      const received = await inspector.evaluate(
        () => (window as unknown as { received: Array<{ type?: string; snapshot?: { value?: unknown } }> }).received,
      );
      const snapshots = received.filter((event) => event.type === '@xstate.actor' || event.type === '@xstate.snapshot');
      expect(snapshots.some((event) => JSON.stringify(event.snapshot?.value ?? '').includes('capture'))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('without ?inspect, no inspector window opens', async () => {
    const { context, page } = await openPage(browser);
    try {
      const popups: string[] = [];
      context.on('page', (opened) => popups.push(opened.url()));
      await page.goto(devUrl);
      await openAssessment(page, devUrl);
      await page.getByRole('dialog').getByLabel('Name').waitFor();
      // the inspector is fetched (a module request) before its window opens: once the page has
      // nothing left to load, no window can follow
      await page.waitForLoadState('networkidle');
      expect(popups).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
