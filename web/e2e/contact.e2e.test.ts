import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '#server/plugins/security.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { MOBILE, openPage, toast } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

const SUCCESS_TITLE = 'Message Sent Successfully!';
const SUCCESS_TEXT = "Thank you for reaching out. We'll respond within 24 hours. Check your email for confirmation.";
const FAILURE_TITLE = 'Error Sending Message';
const FAILURE_TEXT = 'There was a problem sending your message. Please try again.';

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

async function fill(page: Page, values: { name: string; email: string; company?: string; message: string }) {
  await page.getByLabel('Name', { exact: true }).fill(values.name);
  await page.getByLabel('Email', { exact: true }).fill(values.email);
  if (values.company !== undefined) await page.getByLabel('Company/Organization').fill(values.company);
  await page.getByLabel('Message', { exact: true }).fill(values.message);
}

async function formValues(page: Page) {
  return {
    name: await page.getByLabel('Name', { exact: true }).inputValue(),
    email: await page.getByLabel('Email', { exact: true }).inputValue(),
    company: await page.getByLabel('Company/Organization').inputValue(),
    message: await page.getByLabel('Message', { exact: true }).inputValue(),
  };
}

describe('the contact form in a real browser', () => {
  let browser: Browser;
  // a rate-limit prefix of its own: the failure test uses up this server's contact limit
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('has the four fields of the spec, a 5-row message and no axe violations', async () => {
    const { context, page } = await openPage(browser, MOBILE);
    await page.goto(`${server.url}/contact`);
    await page.getByRole('button', { name: 'Send Message' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('required')).not.toBeNull();
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('required')).not.toBeNull();
    expect(await page.getByLabel('Company/Organization').getAttribute('required')).toBeNull();
    const message = page.getByLabel('Message', { exact: true });
    expect(await message.evaluate((el) => el.tagName)).toBe('TEXTAREA');
    expect(await message.getAttribute('rows')).toBe('5');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('lets the browser refuse a missing name or a malformed email without sending anything', async () => {
    const { context, page } = await openPage(browser);
    const posts: string[] = [];
    page.on('request', (request) => request.url().includes('send-contact-email') && posts.push(request.url()));
    await page.goto(`${server.url}/contact`);
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect(await page.getByLabel('Name', { exact: true }).evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);

    await fill(page, { name: 'Ada', email: 'not-an-email', message: 'Hello' });
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect(await page.getByLabel('Email', { exact: true }).evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);

    // what the browser accepts but the form's rules do not: a message of spaces only
    await fill(page, { name: 'Ada', email: 'ada@example.com', message: '   ' });
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Please write a message').waitFor();
    expect(await page.getByLabel('Message', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(posts).toEqual([]);
    await context.close();
  });

  it('sends a message: Sending..., stored in contact_submissions, the success toast, and a cleared form', async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${server.url}/contact`);
    const email = `visitor-${unique()}@example.com`;
    const values = {
      name: 'Grace Hopper',
      email,
      company: 'Navy Labs',
      message: 'My team of nine needs to make decisions without me. Can we talk?',
    };
    await fill(page, values);

    // hold the real request a moment so the busy state can be seen, then let it through unchanged
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/functions/send-contact-email', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Send Message' }).click();
    const busy = page.getByRole('button', { name: 'Sending...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();

    await toast(page, SUCCESS_TITLE).waitFor();
    expect(await toast(page, SUCCESS_TITLE).textContent()).toContain(SUCCESS_TEXT);
    // what a screen reader hears is the spec's title as written, then its text (no '!.')
    const heard = (await page.locator('.hf-toasts [role="status"]').textContent())?.replace(/\u200b/g, '');
    expect(heard).toBe(`${SUCCESS_TITLE} ${SUCCESS_TEXT}`);
    // the toast is inside a landmark of its own (axe: region), like everything else on the page
    expect(await axeViolations(page)).toEqual([]);
    expect(await formValues(page)).toEqual({ name: '', email: '', company: '', message: '' });
    await page.getByRole('button', { name: 'Send Message' }).waitFor();

    const stored = await server.pool.query('SELECT name, email, company, message FROM contact_submissions WHERE email = $1', [email]);
    expect(stored.rows).toEqual([values]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('shows the failure toast and keeps the form when the server refuses the message (its real rate limit)', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${server.url}/contact`);
    // use up this client's contact limit for real, through the same API the form calls
    let limited = false;
    for (let i = 0; i <= rateLimits.contact.max && !limited; i++) {
      const response = await page.request.post(`${server.url}/api/functions/send-contact-email`, {
        data: { name: 'Filler', email: `filler-${unique()}@example.com`, message: 'Using up the limit.' },
      });
      limited = response.status() === 429;
    }
    expect(limited).toBe(true);

    const email = `refused-${unique()}@example.com`;
    const values = { name: 'Katherine Johnson', email, company: '', message: 'Do you run workshops for engineering managers?' };
    await fill(page, values);
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/functions/send-contact-email'));
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await answered).status()).toBe(429);

    const failure = toast(page, FAILURE_TITLE);
    await failure.waitFor();
    expect(await failure.textContent()).toContain(FAILURE_TEXT);
    expect(await failure.getAttribute('data-toast')).toBe('destructive');
    // destructive toasts are also announced assertively
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(FAILURE_TEXT);
    expect(await formValues(page)).toEqual(values);
    const stored = await server.pool.query('SELECT 1 FROM contact_submissions WHERE email = $1', [email]);
    expect(stored.rowCount).toBe(0);
    await context.close();
  });
});
