import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_FIELD_ERRORS } from '#machines/protocol/contact-form.js';
import { PRERENDERED_PAGES } from '#machines/protocol/pages.js';
import { contactFormNotices } from '#machines/contact-form/contact-form.machine.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { captureLimit } from '../plugins/capture-limit.js';
import { rateLimits } from '../plugins/security.js';

/*
 * The contact form as a browser without JavaScript posts it (POST /contact, urlencoded), against
 * the real app serving the built site: what is stored and queued, the page it answers, and what
 * reaches the logs.
 */

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;

beforeAll(async () => {
  harness = await buildTestApp({
    ownPrefix: true,
    logLevel: 'info',
    env: { COACH_EMAIL: 'coach@example.com', PUBLIC_URL: 'https://coach.example.com' },
  });
  ({ app, pool } = harness);
});

afterAll(() => harness?.close());

let clients = 0;
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** A form post from an address of its own, with the headers a browser sends for the site's own page unless told otherwise. */
function post(fields: Record<string, string>, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', origin: 'null' }) {
  clients += 1;
  return app.inject({
    method: 'POST',
    url: '/contact',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
    remoteAddress: `198.51.100.${clients}`,
  });
}

const stored = async (email: string) =>
  (await pool.query('SELECT name, email, company, message FROM contact_submissions WHERE email = $1', [email])).rows;
/** The text of a page, its markup dropped (the notices and field errors are plain text in it). */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('the contact form posted without JavaScript', () => {
  it('stores the message, queues both emails and answers the contact page with the success notice; nothing of it is logged', async () => {
    const email = `nojs-${unique()}@example.com`;
    const from = harness.logLines.length;
    const response = await post({ name: 'Ada Lovelace', email, company: '', message: 'Can we talk about my team?' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const page = text(response.body);
    expect(page).toContain(contactFormNotices.success.title);
    expect(page).toContain(contactFormNotices.success.description);
    expect(response.body).toMatch(/<form [^>]*action="\/contact" method="post"/);
    // the form is empty again
    expect(response.body).not.toContain('Can we talk about my team?');

    expect(await stored(email)).toEqual([{ name: 'Ada Lovelace', email, company: null, message: 'Can we talk about my team?' }]);
    const emails = await pool.query(
      'SELECT e.kind, e.to_address FROM email_outbox e JOIN contact_submissions c ON c.id = e.contact_id WHERE c.email = $1 ORDER BY e.kind',
      [email],
    );
    expect(emails.rows).toEqual([
      { kind: 'contact_confirmation', to_address: email },
      { kind: 'contact_notification', to_address: 'coach@example.com' },
    ]);
    const logged = harness.logLines.slice(from).join('\n');
    expect(logged).toContain('"url":"/contact"');
    expect(logged).not.toMatch(/Lovelace|nojs-|talk about/);
  });

  it('answers 400 with the page naming each refused field, the form kept as sent, and stores nothing', async () => {
    const email = `not-an-address-${unique()}`;
    const response = await post({ name: '   ', email, message: 'Hello there' });
    expect(response.statusCode).toBe(400);
    const page = text(response.body);
    expect(page).toContain(contactFormNotices.failure.title);
    expect(page).toContain(CONTACT_FIELD_ERRORS.name);
    expect(page).toContain(CONTACT_FIELD_ERRORS.email);
    expect(page).not.toContain(CONTACT_FIELD_ERRORS.message);
    // the fields as sent, for the visitor to correct
    expect(response.body).toMatch(new RegExp(`id="contact-email"[^>]*value="${email}"|value="${email}"[^>]*id="contact-email"`));
    expect(response.body).toContain('Hello there</textarea>');
    expect(response.body).toMatch(/id="contact-email"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="contact-email"/);
    expect(await stored(email)).toEqual([]);
  });

  it('refuses (403) a post another site made a browser send, by Sec-Fetch-Site or else by Origin; a client sending neither is no browser and may post', async () => {
    const forged: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://elsewhere.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.coach.example.com' },
      { origin: 'https://elsewhere.example' },
      { origin: 'null' },
    ];
    for (const headers of forged) {
      const email = `forged-${unique()}@example.com`;
      const response = await post({ name: 'Mallory', email, message: 'Spam' }, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(text(response.body)).toContain(contactFormNotices.failure.title);
      expect(response.body).not.toContain(email);
      expect(await stored(email)).toEqual([]);
    }
    const allowed: Array<Record<string, string>> = [{ origin: 'https://coach.example.com' }, { origin: 'http://localhost:8080' }, {}];
    for (const headers of allowed) {
      const email = `allowed-${unique()}@example.com`;
      const response = await post({ name: 'Grace', email, message: 'Hello' }, { ...headers, host: 'localhost:8080' });
      expect(response.statusCode, JSON.stringify(headers)).toBe(200);
      expect(await stored(email)).toHaveLength(1);
    }
  });

  it("a forged or refused post spends none of the address's captures; a sent one spends one", async () => {
    clients += 1;
    const remoteAddress = `198.51.100.${clients}`;
    const send = (fields: Record<string, string>, headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/contact',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams(fields).toString(),
        remoteAddress,
      });
    const forged = await send(
      { name: 'Mallory', email: `forged-${unique()}@example.com`, message: 'Spam' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(forged.statusCode).toBe(403);
    const invalid = await send({ name: 'Grace', email: 'not-an-address', message: 'Hello' }, { 'sec-fetch-site': 'same-origin' });
    expect(invalid.statusCode).toBe(400);
    const sent = await send(
      { name: 'Grace', email: `counted-${unique()}@example.com`, message: 'Hello' },
      { 'sec-fetch-site': 'same-origin' },
    );
    expect(sent.statusCode).toBe(200);
    expect(Number(sent.headers['x-capture-remaining'])).toBe(captureLimit.max - 1);
  });

  it(`past ${rateLimits.contact.max} posts from one address: 429 with the failure notice and the form kept`, async () => {
    clients += 1;
    const remoteAddress = `198.51.100.${clients}`;
    const answers = [];
    for (let i = 0; i <= rateLimits.contact.max; i++) {
      const answer = await app.inject({
        method: 'POST',
        url: '/contact',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        payload: new URLSearchParams({
          name: 'Filler',
          email: `filler-${unique()}@example.com`,
          message: `Message number ${i}`,
        }).toString(),
        remoteAddress,
      });
      answers.push(answer);
    }
    const last = answers[answers.length - 1]!;
    expect(last.statusCode).toBe(429);
    expect(text(last.body)).toContain(contactFormNotices.failure.description);
    expect(last.body).toContain(`Message number ${rateLimits.contact.max}</textarea>`);
  });

  it('every form the server draws, on every public page and in the capture it carries, is sent with method="post"', async () => {
    const forms: string[] = [];
    for (const page of [...PRERENDERED_PAGES, '/no-such-page']) {
      const response = await app.inject({ method: 'GET', url: page });
      forms.push(...(response.body.match(/<form\b[^>]*>/g) ?? []).map((tag) => `${page} ${tag}`));
    }
    // the contact form, and the early capture form every page carries
    expect(forms.filter((form) => form.includes('action="/contact"'))).toHaveLength(1);
    expect(forms.length).toBeGreaterThan(PRERENDERED_PAGES.length);
    expect(forms.filter((form) => !/\smethod="post"/.test(form))).toEqual([]);
  });
});
