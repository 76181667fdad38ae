import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { MOBILE, openPage } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

/*
 * The assessment's first screen comes with the page (web/src/features/assessment/early-capture.ts):
 * a tap shows it before any of the site's code has run, the flow is started by the server at that
 * tap, and the capture typed into it goes through the server's machine; the modal, once its code
 * arrives, opens on the flow as the server left it.
 */

/** Holds back the site's code (start.tsx: React, the router, the page) and the assessment's (the modal) until released. */
async function holdSiteCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(start|modal)-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

describe('the capture screen drawn with the page', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is in every rendered page as a template, with the Name and Email fields', async () => {
    const html = await (await fetch(`${server.url}/about`)).text();
    const screen = html.slice(html.indexOf('<template id="hf-early-capture">'));
    expect(screen).toMatch(/^<template id="hf-early-capture"><div data-early-capture=""/);
    expect(screen).toMatch(/<input[^>]*name="name"/);
    expect(screen).toMatch(/<input[^>]*name="email"/);
  });

  it('opens at a tap with no site code, keeps what is typed, and sends the capture through the server to a flow only this browser can read', async () => {
    const { context, page, problems } = await openPage(browser, MOBILE);
    const release = await holdSiteCode(page);
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    const started = page.waitForResponse((response) => response.url().endsWith('/api/flows') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Take the Free Assessment' }).first().tap();

    const dialog = page.getByRole('dialog', { name: 'Welcome' });
    const start = dialog.getByRole('button', { name: 'Start My Assessment' });
    await dialog.getByLabel('Name').fill('Early Visitor');
    expect(await start.isDisabled()).toBe(true);
    const email = `early-capture-${Date.now()}@example.com`;
    await dialog.getByLabel('Email').fill(email);
    const { flowId } = (await (await started).json()) as { flowId: string };
    // the server started the flow at the tap, through its machine, at the capture
    expect((await server.pool.query('SELECT state FROM flows WHERE id = $1', [flowId])).rows).toEqual([{ state: 'capture.editing' }]);

    const captured = page.waitForResponse((response) => response.url().endsWith(`/api/flows/${flowId}/events`));
    await start.tap();
    expect((await captured).status()).toBe(200);
    // no site code has run, yet the server has the capture: the flow moved on and the lead exists
    expect(await page.evaluate(() => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__react')))).toBe(false);
    expect((await server.pool.query('SELECT state FROM flows WHERE id = $1', [flowId])).rows).toEqual([{ state: 'intro' }]);
    expect((await server.pool.query('SELECT name FROM leads WHERE email = $1', [email])).rows).toEqual([{ name: 'Early Visitor' }]);

    // the modal arrives and opens on that flow, at its next screen; the early screen gives way
    release();
    await page.getByRole('dialog').locator('h2', { hasText: 'Assessment Overview' }).waitFor();
    expect(await page.locator('[data-early-capture]').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('hf:flow:assessment:assessment'))).toBe(flowId);

    // the flow is this browser's: another browser (no visitor cookie) is told it does not exist
    expect((await fetch(`${server.url}/api/flows/${flowId}`)).status).toBe(404);
    expect((await page.request.get(`${server.url}/api/flows/${flowId}`)).status()).toBe(200);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('closes like the modal (Esc, focus back on the button) and starts one flow however often it is opened', async () => {
    const { context, page, problems } = await openPage(browser, MOBILE);
    const release = await holdSiteCode(page);
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    const starts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/flows')) starts.push(request.url());
    });
    const started = page.waitForResponse((response) => response.url().endsWith('/api/flows') && response.request().method() === 'POST');
    const button = page.getByRole('button', { name: 'Take the Free Assessment' }).first();
    await button.tap();
    const dialog = page.getByRole('dialog', { name: 'Welcome' });
    await dialog.getByLabel('Name').fill('Twice');
    const { flowId } = (await (await started).json()) as { flowId: string };
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
    await button.tap();
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Twice');
    await dialog.getByLabel('Email').fill(`twice-${Date.now()}@example.com`);
    const captured = page.waitForResponse((response) => response.url().endsWith(`/api/flows/${flowId}/events`));
    await dialog.getByRole('button', { name: 'Start My Assessment' }).tap();
    expect((await captured).status()).toBe(200);
    expect(starts).toHaveLength(1);
    release();
    await page.getByRole('dialog').locator('h2', { hasText: 'Assessment Overview' }).waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
