import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '#core/config/index.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';

let app: FastifyInstance;
let pool: pg.Pool;
let config: Config;
let harness: TestApp;

beforeAll(async () => {
  // a prefix of its own keeps the rate-limit counters of this file apart from other runs
  harness = await buildTestApp({
    ownPrefix: true,
    env: { COACH_EMAIL: 'coach@example.com', PUBLIC_URL: 'https://coach.example.com' },
  });
  ({ app, pool, config } = harness);
});

afterAll(() => harness?.close());

let clients = 0;
/** Each test posts from an address of its own, so the contact rate limit counts only its requests. */
function client() {
  clients += 1;
  const remoteAddress = `203.0.113.${clients}`;
  return (payload: unknown) =>
    app.inject({ method: 'POST', url: '/api/functions/send-contact-email', payload: payload as object, remoteAddress });
}

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

describe('send-contact-email', () => {
  it('stores the submission and queues the confirmation and the coach notification in one go', async () => {
    const email = `visitor-${unique()}@example.com`;
    const response = await client()({
      name: '  Ada Lovelace ',
      email: ` ${email} `,
      company: 'Analytical Engines',
      message: ' Can we talk about my team? ',
    });
    expect(response.statusCode, response.body).toBe(200);
    const { ok, id } = response.json();
    expect(ok).toBe(true);

    const stored = await pool.query('SELECT name, email, company, message FROM contact_submissions WHERE id = $1', [id]);
    expect(stored.rows).toEqual([{ name: 'Ada Lovelace', email, company: 'Analytical Engines', message: 'Can we talk about my team?' }]);

    const emails = await pool.query(
      `SELECT e.kind, e.to_address, e.reply_to, e.subject, e.text_body, e.status, j.queue, j.payload
       FROM email_outbox e JOIN jobs j ON j.id = e.job_id WHERE e.contact_id = $1 ORDER BY e.kind`,
      [id],
    );
    expect(emails.rows).toHaveLength(2);
    const [confirmation, notification] = emails.rows;
    expect(confirmation).toMatchObject({
      kind: 'contact_confirmation',
      to_address: email,
      reply_to: 'coach@example.com',
      subject: 'Thank you for your message, Ada',
      status: 'pending',
      queue: 'email',
    });
    expect(confirmation.text_body).toContain("We'll respond within 24 hours.");
    expect(confirmation.text_body).toContain('> Can we talk about my team?');
    expect(confirmation.text_body).toContain('https://coach.example.com/#lead-magnets');
    expect(notification).toMatchObject({
      kind: 'contact_notification',
      to_address: 'coach@example.com',
      reply_to: email,
      subject: 'New contact message from Ada Lovelace (Analytical Engines)',
      queue: 'email',
    });
    expect(notification.text_body).toContain(`Email: ${email}`);
    const jobPayloads = emails.rows.map((row) => row.payload.emailId);
    const ids = await pool.query('SELECT id FROM email_outbox WHERE contact_id = $1', [id]);
    expect(jobPayloads.sort()).toEqual(ids.rows.map((row) => row.id).sort());
  });

  it('takes company as optional: missing or blank is stored as none', async () => {
    const send = client();
    const without = await send({ name: 'Grace', email: `g-${unique()}@example.com`, message: 'Hello' });
    const blank = await send({ name: 'Grace', email: `g-${unique()}@example.com`, company: '  ', message: 'Hello' });
    for (const response of [without, blank]) {
      expect(response.statusCode, response.body).toBe(200);
      const stored = await pool.query('SELECT company FROM contact_submissions WHERE id = $1', [response.json().id]);
      expect(stored.rows[0].company).toBeNull();
    }
  });

  it('rejects bad input with 400 naming each field, and stores nothing', async () => {
    const email = `not-an-email-${unique()}`;
    const response = await client()({ name: '   ', email, message: ' ', company: 'x'.repeat(201) });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(Object.keys(body.fields).sort()).toEqual(['company', 'email', 'message', 'name']);
    expect(body.fields.email).toBe('Please enter a valid email address');
    const stored = await pool.query('SELECT 1 FROM contact_submissions WHERE email = $1', [email]);
    expect(stored.rowCount).toBe(0);
    const emails = await pool.query('SELECT 1 FROM email_outbox WHERE to_address = $1 OR reply_to = $1', [email]);
    expect(emails.rowCount).toBe(0);
  });

  it('rolls the submission back when its emails cannot be queued', async () => {
    const email = `rollback-${unique()}@example.com`;
    // a notification address the outbox CHECK refuses makes the second insert fail
    const { app: broken, close } = await buildTestApp({ config: { ...config, COACH_EMAIL: 'nobody' }, sharing: harness });
    try {
      const response = await broken.inject({
        method: 'POST',
        url: '/api/functions/send-contact-email',
        payload: { name: 'Ada', email, message: 'Hi' },
        remoteAddress: '198.51.100.7',
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await close();
    }
    const stored = await pool.query('SELECT 1 FROM contact_submissions WHERE email = $1', [email]);
    expect(stored.rowCount).toBe(0);
    const emails = await pool.query('SELECT 1 FROM email_outbox WHERE to_address = $1', [email]);
    expect(emails.rowCount).toBe(0);
  });

  it('is rate limited per client address', async () => {
    const send = client();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await send({ name: 'Sam', email: `sam-${unique()}@example.com`, message: `Message ${i}` })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
