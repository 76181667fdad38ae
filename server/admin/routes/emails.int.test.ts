import type pg from 'pg';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECIPIENT_LIMIT } from '#core/email/recipient-limit.js';
import { homeworkReceipt } from '#core/email/payment-templates.js';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';

/*
 * The admin's Emails routes (decision 0049) on real PostgreSQL and HTTP: every kind previewed from a
 * sample, "Send me a test" to the signed-in admin only and through the outbox and its limit, and a
 * contact message's two emails readable as sent.
 */

let harness: TestApp;
let app: FastifyInstance;
let pool: pg.Pool;
let admin: SignedInAdmin;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  admin = await signedInAdmin(pool);
});

afterAll(() => harness?.close());

const asAdmin = (options: InjectOptions, who = admin) => app.inject({ ...options, headers: { ...options.headers, ...who.headers } });

describe('GET /api/admin/emails', () => {
  it('previews every kind the site sends, drawn by the real templates, and names where a test goes', async () => {
    const response = await asAdmin({ method: 'GET', url: '/api/admin/emails' });
    expect(response.statusCode, response.body).toBe(200);
    const { previews, testRecipient } = response.json();
    expect(testRecipient).toBe(admin.email);
    expect(previews.map((p: { id: string }) => p.id)).toEqual([
      'results',
      'deposit_receipt',
      'homework_receipt',
      'refund_confirmation',
      'booking_reminder',
      'assessment_reminder',
      'homework',
      'free_resources',
      'address_confirmation',
      'contact_confirmation',
      'contact_notification',
      'sign_in_notice',
    ]);
    // every kind the outbox accepts (its CHECK constraint) has a preview: a new kind cannot be left out
    const check = await pool.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
       WHERE conrelid = 'email_outbox'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%kind%'`,
    );
    const kinds = [...check.rows[0]!.def.matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]);
    expect(kinds.length).toBeGreaterThan(5);
    expect(new Set(previews.map((p: { kind: string }) => p.kind))).toEqual(new Set(kinds));
    for (const preview of previews) {
      expect(preview.subject, preview.id).not.toBe('');
      expect(preview.text, preview.id).toMatch(/\S/);
    }
    const receipt = previews.find((p: { id: string }) => p.id === 'homework_receipt');
    expect(receipt.subject).toBe('Receipt: your $250.00 payment for your leadership homework');
    // one definition: the preview is the template's own output
    expect(receipt.text).toBe(
      homeworkReceipt(
        {
          name: 'Alex Morgan',
          amountCents: 25_000,
          currency: 'usd',
          reference: 'pi_sample_3Qx7Lm2eZvKYlo2C',
          at: new Date('2026-01-15T10:30:00Z'),
          testMode: false,
        },
        DEFAULT_SITE_SETTINGS,
      ).text,
    );
    const reminder = previews.find((p: { id: string }) => p.id === 'booking_reminder');
    expect(reminder.when).toBe('24 hours after the deposit, if no session is booked by then (set in Site settings).');
  });

  it('shows a reminder turned off as off', async () => {
    const off = { enabled: false, delayHours: 5 };
    const saved = await asAdmin({
      method: 'PUT',
      url: '/api/admin/reminder-settings',
      payload: { booking_reminder: off, assessment_reminder: { enabled: true, delayHours: 1.5 } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { previews } = (await asAdmin({ method: 'GET', url: '/api/admin/emails' })).json();
    expect(previews.find((p: { id: string }) => p.id === 'booking_reminder').when).toBe('Off: not sent (set in Site settings).');
    expect(previews.find((p: { id: string }) => p.id === 'assessment_reminder').when).toMatch(/^1\.5 hours after/);
    await pool.query('DELETE FROM reminder_settings');
  });
});

describe('POST /api/admin/emails/:id/test', () => {
  it("sends the sample to the signed-in admin only, as an outbox row of nobody's, counted against the per-recipient limit", async () => {
    const coach = await signedInAdmin(pool);
    const first = await asAdmin({ method: 'POST', url: '/api/admin/emails/homework_receipt/test' }, coach);
    expect(first.statusCode, first.body).toBe(200);
    // no SMTP configured here: the row is the delivery
    expect(first.json()).toEqual({ to: coach.email, status: 'recorded' });
    const rows = await pool.query(
      'SELECT kind, to_address, subject, lead_id, contact_id, status FROM email_outbox WHERE to_address = $1 ORDER BY created_at',
      [coach.email],
    );
    expect(rows.rows).toEqual([
      {
        kind: 'deposit_receipt',
        to_address: coach.email,
        subject: '[Test] Receipt: your $250.00 payment for your leadership homework',
        lead_id: null,
        contact_id: null,
        status: 'recorded',
      },
    ]);
    for (let sent = 1; sent < RECIPIENT_LIMIT.max; sent += 1) {
      expect((await asAdmin({ method: 'POST', url: '/api/admin/emails/results/test' }, coach)).json().status).toBe('recorded');
    }
    const over = (await asAdmin({ method: 'POST', url: '/api/admin/emails/results/test' }, coach)).json();
    expect(over).toMatchObject({ status: 'skipped', reason: expect.stringContaining('per-recipient limit') });
  });

  it('answers 404 for a name that is no email, 400 for a malformed one', async () => {
    const unknown = await asAdmin({ method: 'POST', url: '/api/admin/emails/newsletter/test' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No email with id newsletter');
    const malformed = await asAdmin({ method: 'POST', url: '/api/admin/emails/Not%20one/test' });
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.json())).toContain('id');
  });
});

describe('GET /api/admin/contact/:id/emails', () => {
  it("reads a contact message's confirmation and notification as they were sent; 404 for no such message", async () => {
    const posted = await app.inject({
      method: 'POST',
      url: '/api/functions/send-contact-email',
      payload: { name: 'Cora Contact', email: 'cora@example.com', company: 'Acme', message: 'Can we talk about coaching for my team?' },
      remoteAddress: '203.0.113.77',
    });
    expect(posted.statusCode, posted.body).toBe(200);
    const { id } = posted.json();
    const response = await asAdmin({ method: 'GET', url: `/api/admin/contact/${id}/emails` });
    expect(response.statusCode, response.body).toBe(200);
    const emails = response.json();
    expect(emails.map((e: { kind: string }) => e.kind).sort()).toEqual(['contact_confirmation', 'contact_notification']);
    const confirmation = emails.find((e: { kind: string }) => e.kind === 'contact_confirmation');
    expect(confirmation).toMatchObject({ to_address: 'cora@example.com', subject: 'Thank you for your message, Cora', attachments: [] });
    expect(confirmation.text_body).toContain('Can we talk about coaching for my team?');

    const none = await asAdmin({ method: 'GET', url: '/api/admin/contact/00000000-0000-4000-8000-000000000001/emails' });
    expect(none.statusCode).toBe(404);
  });
});
