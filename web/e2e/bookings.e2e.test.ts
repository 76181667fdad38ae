import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedResultsFlow } from '#test/flows.js';
import { bookingReferenceOf, inviteeCreated, postCalendlyEvent } from '#test/scheduling.js';
import { axeViolations } from './axe.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openAdminPage, signedInAdminState, type StorageState } from './pages.js';
import { startTestServer, type TestServer } from './server.js';

/*
 * What the coach sees of bookings in a real browser: a paying lead still not booked after the
 * reminder on the Overview's Needs attention, then the provider's booking (a signed Calendly
 * event) taking them off it and showing on the lead's page beside the deposit.
 */

const SHOTS = '/tmp/shots-bookings';
const KEY = `e2e-sched-${randomBytes(8).toString('hex')}`;

describe('bookings in the admin, in a real browser', () => {
  let browser: Browser;
  let server: TestServer;
  let signedIn: StorageState;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
    await server.pool.query(
      `INSERT INTO integration_settings (key, enabled, configured, webhook_key) VALUES ('scheduling', false, false, $1)
       ON CONFLICT (key) DO UPDATE SET webhook_key = $1`,
      [KEY],
    );
    signedIn = await signedInAdminState(browser, server.url, server.pool, `bookings-e2e-${Date.now()}@example.com`);
  });

  afterAll(async () => {
    await server?.pool.query("UPDATE integration_settings SET webhook_key = NULL WHERE key = 'scheduling'");
    await browser?.close();
    await server?.close();
  });

  /** A lead who paid the deposit and was reminded to book (the flow's timer has fired). */
  async function remindedPayer() {
    const seeded = await seedResultsFlow(
      server.pool,
      'book_call',
      `bookings-e2e-${randomBytes(4).toString('hex')}@example.com`,
      undefined,
      [
        { type: 'CONTINUE' },
        { type: 'PAY_DEPOSIT' },
        { type: 'PAYMENT_CONFIRMED', paymentIntentId: `pi_test_${randomBytes(6).toString('hex')}` },
        { type: 'BOOKING_REMINDER_DUE' },
      ],
    );
    // a live payment: a test-mode one is listed only with test data included
    await server.pool.query(
      "INSERT INTO payment_tracking (payment_intent_id, lead_id, flow_id, purpose, amount_cents, status, test_mode) VALUES ($1, $2, $3, 'deposit', 25000, 'succeeded', false)",
      [`pi_${randomBytes(8).toString('hex')}`, seeded.leadId, seeded.flowId],
    );
    await server.pool.query("UPDATE leads SET name = 'Nora Notbooked' WHERE lead_id = $1", [seeded.leadId]);
    return seeded;
  }

  it('lists a paying lead not booked after the reminder, and the reported booking moves them to their page', async () => {
    const payer = await remindedPayer();
    for (const viewport of [DESKTOP, MOBILE]) {
      const { context, page, errors } = await openAdminPage(browser, signedIn, viewport);
      await page.goto(`${server.url}/admin`);
      const panel = page.locator('section[aria-labelledby="needs-attention"]');
      await panel.getByRole('link', { name: 'Nora Notbooked' }).first().waitFor();
      await expect.poll(() => panel.getByText('Paid, no session booked after the reminder').count()).toBeGreaterThan(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `${SHOTS}/overview-attention-${viewport.width}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }

    const booking = inviteeCreated(await bookingReferenceOf(server.pool, payer.flowId), payer.email, '2026-12-01T15:00:00.000000Z');
    expect(await postCalendlyEvent(server.url, KEY, booking)).toEqual({ received: true, applied: true });

    const { context, page, errors } = await openAdminPage(browser, signedIn, DESKTOP);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Funnel' }).waitFor();
    expect(await page.locator('section[aria-labelledby="needs-attention"]').getByRole('link', { name: 'Nora Notbooked' }).count()).toBe(0);
    await page.goto(`${server.url}/admin/leads/${payer.leadId}`);
    await page.getByText(/^Session booked for .+ via Calendly$/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/lead-booked-1280.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
  it('shows a booking no reference matched on the lead page, and Assign to this lead books them', async () => {
    const payer = await remindedPayer();
    // booked at the coach's page without the site's link: the address is not proven, so it matches nobody
    const booking = inviteeCreated(null, payer.email, '2026-12-08T10:00:00.000000Z');
    expect(await postCalendlyEvent(server.url, KEY, { ...booking, payload: { ...booking.payload, name: 'Nora Notbooked' } })).toMatchObject(
      {
        received: true,
        applied: false,
      },
    );
    for (const viewport of [DESKTOP, MOBILE]) {
      const { context, page, errors } = await openAdminPage(browser, signedIn, viewport);
      await page.goto(`${server.url}/admin/leads/${payer.leadId}`);
      const panel = page.locator('section[aria-labelledby="lead-unmatched-bookings"]');
      await panel.getByText(payer.email).waitFor();
      expect(await panel.getByText('matches this lead').count()).toBeGreaterThan(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `${SHOTS}/lead-unmatched-${viewport.width}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }

    const { context, page, errors } = await openAdminPage(browser, signedIn, DESKTOP);
    await page.goto(`${server.url}/admin/leads/${payer.leadId}`);
    const panel = page.locator('section[aria-labelledby="lead-unmatched-bookings"]');
    await panel.locator('li', { hasText: payer.email }).getByRole('button', { name: 'Assign to this lead' }).click();
    await page.getByText(/^Session booked for .+ via Calendly$/).waitFor();
    await page.getByText('Booking assigned').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/lead-assigned-1280.png`, fullPage: true });
    const flow = await server.pool.query<{ state: string }>('SELECT state FROM flows WHERE id = $1', [payer.flowId]);
    expect(flow.rows[0]!.state).toBe('payment_success.booked');
    expect(errors).toEqual([]);
    await context.close();
  });
});
