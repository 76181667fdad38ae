import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '#test/smtp-sink.js';
import { until } from '#test/until.js';
import { startAssessmentServer, type AssessmentServer } from './assessment-harness.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { openAdminPage, signedInAdminState, toast, type StorageState } from './pages.js';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-admin-emails';

/*
 * The admin's Emails screen, the Reminders card and a contact message's emails (decision 0049) in
 * a real browser, against a server whose SMTP is a sink on loopback: a test send arrives in the
 * signed-in admin's inbox, and nobody else's.
 */
describe('the Emails screen in a real browser', () => {
  let browser: Browser;
  let server: AssessmentServer;
  let sink: SmtpSink;
  let signedIn: StorageState;
  const adminEmail = `emails-e2e-${Date.now()}@example.com`;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    sink = await startSmtpSink();
    server = await startAssessmentServer({ SMTP_URL: sink.url });
    browser = await launchBrowser();
    signedIn = await signedInAdminState(browser, server.url, server.pool, adminEmail);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sink?.close();
  });

  it('previews every email from a sample lead, and "Send me a test" lands in the admin\'s own inbox', async () => {
    const { context, page, errors } = await openAdminPage(browser, signedIn);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Emails' }).click();
    await page.waitForURL(`${server.url}/admin/emails`);
    await page.getByRole('heading', { level: 1, name: 'Emails' }).waitFor();
    for (const name of [
      'Results',
      'Receipt: deposit',
      'Receipt: paid homework',
      'Refund confirmation',
      'Reminder to book',
      'Invitation to finish',
      'Paid homework',
      'Free resources',
      'Was this you?',
      'Contact confirmation',
      'Contact notification',
    ]) {
      await page.getByRole('heading', { level: 2, name: new RegExp(`^${name.replace(/[?]/g, '\\?')} `) }).waitFor();
    }
    const receipt = page.getByRole('article', { name: /^Receipt: paid homework/ });
    await receipt.getByText('Preview Receipt: paid homework').click();
    const body = receipt.getByLabel('The email Receipt: your $250.00 payment for your leadership homework');
    await body.waitFor();
    expect(await body.textContent()).toContain('Purchase: Four-week leadership homework programme (refundable deposit)');
    expect(await body.textContent()).toContain('Hi Alex,');
    await page.screenshot({ path: `${SHOTS}/emails-1280.png`, fullPage: true });

    await receipt.getByRole('button', { name: /^Send me a test/ }).click();
    await toast(page, `Sent to ${adminEmail}.`).waitFor();
    await until(() => sink.messages.some((mail) => mail.envelopeTo.includes(adminEmail)));
    const mail = sink.messages.find((m) => m.envelopeTo.includes(adminEmail))!;
    expect(mail.subject).toBe('[Test] Receipt: your $250.00 payment for your leadership homework');
    expect(mail.text).toContain('Reference: pi_sample_');
    // never to a lead: the sink got this one email, for the admin alone
    expect(sink.messages.flatMap((m) => m.envelopeTo)).toEqual([adminEmail]);

    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('turning the reminder to book off in Site settings shows on the Emails screen', async () => {
    const { context, page, errors } = await openAdminPage(browser, signedIn);
    await page.goto(`${server.url}/admin/settings`);
    const reminders = page.getByRole('form', { name: 'Reminders' });
    await reminders.getByLabel('Send the reminder to book').waitFor();
    expect(await reminders.getByLabel('Hours after the deposit, if no session is booked').inputValue()).toBe('24');
    await reminders.getByLabel('Send the reminder to book').uncheck();
    await reminders.getByLabel('Hours after the lead gave their details, if unfinished').fill('0');
    await reminders.getByRole('button', { name: 'Save reminders' }).click();
    // refused, naming the field, nothing stored
    await reminders.getByText('Expected more than 0 hours.').waitFor();
    await reminders.getByLabel('Hours after the lead gave their details, if unfinished').fill('3');
    await reminders.getByRole('button', { name: 'Save reminders' }).click();
    await toast(page, 'Reminders saved').waitFor();
    await page.screenshot({ path: `${SHOTS}/reminders-1280.png`, fullPage: true });

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Emails' }).click();
    const toBook = page.getByRole('article', { name: /^Reminder to book/ });
    await toBook.getByText('Off: not sent (set in Site settings).').waitFor();
    await page
      .getByRole('article', { name: /^Invitation to finish/ })
      .getByText(/^3 hours after/)
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a contact message's confirmation and notification are readable on Messages", async () => {
    const posted = await fetch(`${server.url}/api/functions/send-contact-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cora Contact', email: 'cora@example.com', company: 'Acme', message: 'Could we talk about my team?' }),
    });
    expect(posted.status).toBe(200);
    const { context, page, errors } = await openAdminPage(browser, signedIn);
    await page.goto(`${server.url}/admin/messages`);
    const message = page.getByRole('article', { name: 'Message from Cora Contact' });
    await message.getByText('Emails sent').click();
    await message.getByText('Thank you for your message, Cora').waitFor();
    await message.getByText('New contact message from Cora Contact').waitFor();
    await message.locator('[data-email="contact_confirmation"]').getByText('Read the email').click();
    const confirmation = message.getByLabel('The email Thank you for your message, Cora');
    expect(await confirmation.textContent()).toContain('Could we talk about my team?');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
