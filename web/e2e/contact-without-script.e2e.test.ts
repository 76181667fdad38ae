import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactFormNotices } from '#machines/contact-form/contact-form.machine.js';
import { CONTACT_FIELD_ERRORS } from '#machines/protocol/contact-form.js';
import { launchBrowser } from './browser.js';
import { startTestServer, type TestServer } from './server.js';

/*
 * The contact form in a real browser that runs no JavaScript: the browser itself posts the form,
 * and the server's answer is the page the person reads. Nothing of the message may reach an address
 * (the browser's, a server's access log).
 */
describe('the contact form with JavaScript off', () => {
  let browser: Browser;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ privatePrefix: true, logLevel: 'info' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

  it('sends a message: POST /contact, the success notice in the page, the message stored, and no personal data in any address or log', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const requests: Array<{ method: string; url: string }> = [];
    page.on('request', (request) => requests.push({ method: request.method(), url: request.url() }));
    const from = server.logLines.length;
    await page.goto(`${server.url}/contact`);

    const email = `no-script-${unique()}@example.com`;
    await page.getByLabel('Name', { exact: true }).fill('Margaret Hamilton');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Message', { exact: true }).fill('Our flight software team needs a coach.');
    const answered = page.waitForResponse(
      (response) => response.url() === `${server.url}/contact` && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await answered).status()).toBe(200);

    await page.getByRole('status').filter({ hasText: contactFormNotices.success.title }).waitFor();
    expect(await page.getByRole('status').textContent()).toContain(contactFormNotices.success.description);
    expect(page.url()).toBe(`${server.url}/contact`);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('');
    const stored = await server.pool.query('SELECT name, message FROM contact_submissions WHERE email = $1', [email]);
    expect(stored.rows).toEqual([{ name: 'Margaret Hamilton', message: 'Our flight software team needs a coach.' }]);

    const addresses = requests.map(({ url }) => url).join('\n');
    expect(addresses).not.toMatch(/Hamilton|no-script-|flight/);
    expect(requests.filter(({ url }) => url.startsWith(`${server.url}/contact`)).map(({ method }) => method)).toEqual(['GET', 'POST']);
    expect(server.logLines.slice(from).join('\n')).not.toMatch(/Hamilton|no-script-|flight/);
    await context.close();
  });

  it('a refused form comes back as sent, each refused field named, nothing stored', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/contact`);
    const email = `spaces-${unique()}@example.com`;
    await page.getByLabel('Name', { exact: true }).fill('Ada');
    await page.getByLabel('Email', { exact: true }).fill(email);
    // what the browser's own checks let through and the form's rules refuse: a message of spaces only
    await page.getByLabel('Message', { exact: true }).fill('   ');
    const answered = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await answered).status()).toBe(400);
    await page.getByRole('alert').filter({ hasText: contactFormNotices.failure.title }).waitFor();
    await page.getByText(CONTACT_FIELD_ERRORS.message).waitFor();
    expect(await page.getByLabel('Message', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    const stored = await server.pool.query('SELECT 1 FROM contact_submissions WHERE email = $1', [email]);
    expect(stored.rowCount).toBe(0);
    await context.close();
  });

  it('with JavaScript on, the page drawn with an outcome hydrates without a mismatch and the form is sent by fetch as before', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    // a refused no-script post; its answer is then served at /contact and run with the site's code
    const refused = await page.request.post(`${server.url}/contact`, {
      form: { name: 'Ada', email: 'not-an-address', message: 'Hello' },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(refused.status()).toBe(400);
    await page.route(`${server.url}/contact`, async (route) =>
      route.request().method() === 'GET' ? route.fulfill({ response: refused }) : route.continue(),
    );
    await page.goto(`${server.url}/contact`);
    await page.getByText(CONTACT_FIELD_ERRORS.email).waitFor();
    const email = `fixed-${unique()}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    const sent = page.waitForResponse((response) => response.url().endsWith('/api/functions/send-contact-email'));
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await sent).status()).toBe(200);
    await page.locator('[data-toast]').filter({ hasText: contactFormNotices.success.title }).waitFor();
    const stored = await server.pool.query('SELECT name, message FROM contact_submissions WHERE email = $1', [email]);
    expect(stored.rows).toEqual([{ name: 'Ada', message: 'Hello' }]);
    // the one console error is the browser noting the page's own 400; no hydration mismatch, no failure
    expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([]);
    await context.close();
  });
});
