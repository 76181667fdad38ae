import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { DEFAULT_SCHEDULING_URL, DEFAULT_SITE_SETTINGS, type SiteSettings } from '#machines/site-settings.js';
import { seedFlow, surveyedEvents } from '#test/flows.js';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { injectAs, seedVisitor } from '#test/visitor.js';
import { startSmtpSink } from '#test/smtp-sink.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import type { Config } from '#core/config/index.js';
import { FlowEngine } from '#core/flows/engine.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';

/* A database of its own: the site settings are one row for the whole deployment. */

let app: FastifyInstance;
let pool: pg.Pool;
let config: Config;
let harness: TestApp;
let admin: SignedInAdmin;
const smtp = await startSmtpSink();

const SAVED: SiteSettings = {
  communityUrl: 'https://community.example.com/leaders',
  socialLinks: { ...DEFAULT_SITE_SETTINGS.socialLinks, professional: 'https://www.linkedin.com/in/dana-whitfield', tiktok: null },
  contact: { name: 'Dana Whitfield', email: 'dana@coach.example.com', phone: '+44 20 7946 0958', location: 'Bristol, UK', hours: null },
};

function asAdmin(options: InjectOptions) {
  return app.inject({
    ...options,
    headers: { ...options.headers, cookie: `${app.sessionCookieName}=${admin.cookie}`, 'x-csrf-token': admin.csrf },
  });
}
const put = (payload: unknown) => asAdmin({ method: 'PUT', url: '/api/admin/site-settings', payload: payload as InjectOptions['payload'] });
/** toMatchObject as a predicate, for until(). */
function matches(actual: unknown, expected: object): boolean {
  try {
    expect(actual).toMatchObject(expected);
    return true;
  } catch {
    return false;
  }
}

const storedRows = async () => (await pool.query('SELECT settings, updated_by FROM site_settings')).rows;

beforeAll(async () => {
  harness = await buildTestApp({
    ownDatabase: true,
    env: { PUBLIC_URL: 'https://coach.example.com', STRIPE_SECRET_KEY: 'sk_test_never_shown_1234' },
    fakes: { smtp: smtp.url },
  });
  ({ app, pool, config } = harness);
  admin = await signedInAdmin(pool);
});

afterAll(async () => {
  await harness?.close();
  await smtp.close();
});

beforeEach(async () => {
  await pool.query('DELETE FROM site_settings');
  await pool.query('DELETE FROM integration_settings');
});

describe('/api/admin/site-settings access', () => {
  it('answers 401 to an anonymous caller and to a visitor, 403 to an admin who must change a generated password', async () => {
    const visitor = injectAs(app, { visitorCookie: (await seedVisitor(pool)).cookie });
    for (const caller of [(options: InjectOptions) => app.inject(options), visitor]) {
      expect((await caller({ method: 'GET', url: '/api/admin/site-settings' })).statusCode).toBe(401);
      const refused = await caller({ method: 'PUT', url: '/api/admin/site-settings', payload: SAVED });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
    const generated = await signedInAdmin(pool, { mustChangePassword: true });
    const headers = { cookie: `${app.sessionCookieName}=${generated.cookie}`, 'x-csrf-token': generated.csrf };
    expect((await app.inject({ method: 'GET', url: '/api/admin/site-settings', headers })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: '/api/admin/site-settings', headers, payload: SAVED })).statusCode).toBe(403);
    expect(await storedRows()).toEqual([]);
  });

  it('refuses a save without the session’s CSRF token (403), storing nothing', async () => {
    for (const csrf of [undefined, 'f'.repeat(64)]) {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/admin/site-settings',
        payload: SAVED,
        headers: { cookie: `${app.sessionCookieName}=${admin.cookie}`, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Missing or wrong x-csrf-token header.');
    }
    expect(await storedRows()).toEqual([]);
  });
});

describe('/api/admin/site-settings', () => {
  it('reads the defaults on a fresh install, with no booking page and the fallback it leaves visitors with', async () => {
    const response = await asAdmin({ method: 'GET', url: '/api/admin/site-settings' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      settings: DEFAULT_SITE_SETTINGS,
      updatedAt: null,
      booking: { url: null, fallbackUrl: DEFAULT_SCHEDULING_URL },
    });
  });

  it('answers 400 naming every bad field, and stores nothing', async () => {
    const response = await put({
      communityUrl: 'http://community.example.com',
      socialLinks: { ...SAVED.socialLinks, x: 'javascript:alert(1)', video: 'ftp://videos.example.com' },
      contact: { name: '   ', email: 'dana-at-example', phone: 'call me maybe', location: 'x'.repeat(201), hours: null },
    });
    expect(response.statusCode, response.body).toBe(400);
    const { fields } = response.json();
    expect(Object.keys(fields).sort()).toEqual(
      ['communityUrl', 'contact.email', 'contact.location', 'contact.name', 'contact.phone', 'socialLinks.video', 'socialLinks.x'].sort(),
    );
    expect(fields.communityUrl).toBe('Expected an https:// address (http:// only for localhost).');
    expect(fields['contact.email']).toBe('Please enter a valid email address');
    expect(await storedRows()).toEqual([]);

    // a missing platform, an unknown field or no body at all are refused the same way
    const sixLinks: Partial<SiteSettings['socialLinks']> = { ...SAVED.socialLinks };
    delete sixLinks.tiktok;
    expect((await put({ ...SAVED, socialLinks: sixLinks })).json().fields).toHaveProperty('socialLinks.tiktok');
    expect((await put({ ...SAVED, bookingUrl: 'https://cal.example.com' })).statusCode).toBe(400);
    expect((await asAdmin({ method: 'PUT', url: '/api/admin/site-settings' })).statusCode).toBe(400);
    expect(await storedRows()).toEqual([]);
  });

  it('saves and reads back what the admin set: trimmed, blanks as null, who saved it', async () => {
    const sent = {
      ...SAVED,
      communityUrl: `  ${SAVED.communityUrl} `,
      socialLinks: { ...SAVED.socialLinks, tiktok: '' },
      contact: { ...SAVED.contact, hours: '   ', email: ' dana@coach.example.com ' },
    };
    const saved = await put(sent);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ settings: SAVED, updatedAt: expect.any(String) });
    expect((await asAdmin({ method: 'GET', url: '/api/admin/site-settings' })).json()).toEqual(saved.json());
    expect(await storedRows()).toEqual([{ settings: SAVED, updated_by: admin.id }]);

    // a second save replaces the first; http is allowed for a loopback address only
    const local = { ...SAVED, communityUrl: 'http://localhost:8080/community' };
    expect((await put(local)).json().settings).toEqual(local);
    expect(await storedRows()).toHaveLength(1);
  });

  it('shows the booking page set in Integrations, which stays the one place to set it', async () => {
    const url = 'https://cal.example.com/dana/strategy';
    const scheduling = await asAdmin({ method: 'PUT', url: '/api/admin/integrations/scheduling', payload: { enabled: true, value: url } });
    expect(scheduling.statusCode, scheduling.body).toBe(200);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/site-settings' })).json().booking).toEqual({
      url,
      fallbackUrl: DEFAULT_SCHEDULING_URL,
    });
    expect((await put(SAVED)).json().booking.url).toBe(url);
  });
});

describe('GET /api/config', () => {
  it('gives visitors the saved community page, social links and contact details, and no secret', async () => {
    // the rows deleted before each test are announced to the server a moment after the delete
    await until(async () => matches((await app.inject('/api/config')).json(), DEFAULT_SITE_SETTINGS));

    const secrets = { team_chat: 'https://hooks.slack.com/services/T1/B2/SECRETchat', email_marketing: 'mk_live_SECRETkey_0123' };
    for (const [key, value] of Object.entries(secrets)) {
      expect((await asAdmin({ method: 'PUT', url: `/api/admin/integrations/${key}`, payload: { enabled: true, value } })).statusCode).toBe(
        200,
      );
    }
    expect((await put(SAVED)).statusCode).toBe(200);
    const response = await app.inject('/api/config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ paymentMode: 'stripe', depositCents: 25_000, mirrorEngine: 'built-in', bookingUrl: null, ...SAVED });
    for (const secret of [...Object.values(secrets), config.STRIPE_SECRET_KEY!, 'SECRET']) expect(response.body).not.toContain(secret);
  });

  it('hands out the defaults rather than a stored document the rules refuse (a hand edit in the database)', async () => {
    await pool.query('INSERT INTO site_settings (settings) VALUES ($1)', [
      JSON.stringify({ ...SAVED, communityUrl: 'http://community.example.com' }),
    ]);
    // the hand edit is announced by the table's trigger; then the stored document is read and refused
    await until(async () => matches((await app.inject('/api/config')).json(), DEFAULT_SITE_SETTINGS));
  });
});

describe('emails after a change', () => {
  /** A nurture lead graded now: its results email job is written in the GRADED transaction. */
  async function gradeNurtureLead(engine: FlowEngine): Promise<string> {
    const email = `nurture-${randomBytes(4).toString('hex')}@example.com`;
    const lead = await createOrUpdateLead(pool, { email, name: 'Grace Hopper' });
    const flowId = await seedFlow(pool, 'assessmentFlow', surveyedEvents({ name: 'Grace Hopper', email, leadId: lead.leadId }), {
      leadId: lead.leadId,
      input: { testingMode: false },
    });
    await engine.apply(flowId, { type: 'GRADED', result: resultFor('nurture') }, 'worker');
    return email;
  }

  it('carry the details saved a moment before, read by the running worker at send time (no restart)', async () => {
    const engine = new FlowEngine(pool);
    await buildTestWorker(harness, { queues: ['email'] });
    onTestFinished(() => void smtp.messages.splice(0));
    // the text as written (SMTP carries it with CRLF line ends)
    const mailTo = (address: string) => {
      const mail = smtp.messages.find((received) => received.envelopeTo.includes(address));
      return mail && { text: mail.text.replaceAll('\r\n', '\n'), html: mail.html };
    };

    const first = await gradeNurtureLead(engine);
    await until(() => mailTo(first) !== undefined);
    expect(mailTo(first)!.text).toContain(`Join the Free Community: ${DEFAULT_SITE_SETTINGS.communityUrl}`);
    expect(mailTo(first)!.text).toMatch(/\n-- \nLeadership Coaching\n*$/);

    expect((await put(SAVED)).statusCode).toBe(200);
    const second = await gradeNurtureLead(engine);
    await until(() => mailTo(second) !== undefined);
    const mail = mailTo(second)!;
    expect(mail.text).toContain('Join the Free Community: https://community.example.com/leaders');
    expect(mail.text).toMatch(/\n-- \nDana Whitfield\ndana@coach\.example\.com\n\+44 20 7946 0958\nBristol, UK\n*$/);
    expect(mail.html).toContain('Dana Whitfield<br>dana@coach.example.com<br>+44 20 7946 0958<br>Bristol, UK');
  });

  it("close the contact form's confirmation with the coach's details, and leave the coach's own notification alone", async () => {
    expect((await put(SAVED)).statusCode).toBe(200);
    const sent = await app.inject({
      method: 'POST',
      url: '/api/functions/send-contact-email',
      payload: { name: 'Grace Hopper', email: 'grace@example.com', message: 'Could we talk about coaching for my team?' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const emails = await pool.query<{ kind: string; text_body: string }>('SELECT kind, text_body FROM email_outbox WHERE contact_id = $1', [
      sent.json().id,
    ]);
    const byKind = Object.fromEntries(emails.rows.map((row) => [row.kind, row.text_body]));
    expect(byKind.contact_confirmation).toMatch(/\n-- \nDana Whitfield\ndana@coach\.example\.com\n\+44 20 7946 0958\nBristol, UK\n$/);
    expect(byKind.contact_notification).not.toContain('\n-- \n');
  });
});
