import { bookingReferenceFor } from '#core/scheduling/booking-references.js';
import type { Job } from 'bullmq';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { seedFlow, seedResultsFlow } from '#test/flows.js';
import { isolatedConfig } from '#test/helpers.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '#test/smtp-sink.js';
import { buildTestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import type { Config } from '#core/config/index.js';
import { createPool } from '#core/db/pool.js';
import { isUnsubscribed } from '#core/email/unsubscribe.js';
import { FlowEngine } from '#core/flows/engine.js';
import { checkResumeToken } from '#core/flows/resume-link.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';
import { insertJob } from '#core/queues/outbox.js';
import type { RelayedJobData } from '#core/queues/relay.js';
import { emailProcessor } from './email.js';

const PUBLIC_URL = 'https://coach.example.com';
const BOOKING_PAGE = 'https://calendly.com/coach-example/strategy-session';

let sink: SmtpSink;
let config: Config;
let pool: pg.Pool;
let drop: () => Promise<void>;

/** A database of this file's own (one test runs the outbox relay, which takes every pending job of its database). */
async function openDatabase() {
  const isolated = await isolatedConfig({ SMTP_URL: sink.url, EMAIL_FROM: 'coach@coach.example.com', PUBLIC_URL });
  return { config: isolated.config, pool: createPool(isolated.config.DATABASE_URL!, 6), drop: isolated.drop };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  ({ config, pool, drop } = await openDatabase());
  await pool.query(
    "INSERT INTO integration_settings (key, enabled, configured, value) VALUES ('scheduling', true, true, $1) ON CONFLICT (key) DO UPDATE SET value = $1",
    [BOOKING_PAGE],
  );
});

afterAll(async () => {
  await pool?.end();
  await drop?.();
  await sink?.close();
});

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const mailsTo = (email: string) => sink.messages.filter((mail) => mail.envelopeTo.includes(email));
const outboxOf = async (leadId: string, on = pool) =>
  (
    await on.query<{ kind: string; status: string; headers: Record<string, string> }>(
      'SELECT kind, status, headers FROM email_outbox WHERE lead_id = $1',
      [leadId],
    )
  ).rows;

/** A captured lead's assessment left at its intro; the address proven (a link mailed to it was followed), so the reminder is due. */
async function abandonedFlow(on = pool) {
  const email = `reminder-${unique()}@example.com`;
  const lead = await createOrUpdateLead(on, { email, name: 'Grace Hopper' });
  await on.query('UPDATE leads SET email_proven_at = now() WHERE lead_id = $1', [lead.leadId]);
  const flowId = await seedFlow(
    on,
    'assessmentFlow',
    [
      { type: 'CAPTURE_SUBMIT', name: 'Grace Hopper', email },
      { type: 'LEAD_SAVED', leadId: lead.leadId },
    ],
    { leadId: lead.leadId },
  );
  return { flowId, leadId: lead.leadId, email };
}

/** A lead who paid the deposit (its path 'deposit_paid', booking none), moved on by `then`. */
async function paidFlow(then: Array<{ type: string; [key: string]: unknown }> = []) {
  const paid = [{ type: 'CONTINUE' }, { type: 'PAY_DEPOSIT' }, { type: 'PAYMENT_CONFIRMED', paymentIntentId: `pi_${unique()}` }];
  return seedResultsFlow(pool, 'book_call', `paid-${unique()}@example.com`, undefined, [...paid, ...then]);
}

/** The job the flow's delay writes, run by the email processor as the worker would (`times` over: a retry). */
async function runReminder(name: 'assessment-reminder' | 'booking-reminder', flow: { flowId: string; leadId: string }, times = 1) {
  const payload = { flowId: flow.flowId, request: { leadId: flow.leadId } };
  const jobRowId = await insertJob(pool, { queue: 'email', name, payload, flowId: flow.flowId, leadId: flow.leadId }, { direct: true });
  const context = { pool, config, log: pino({ level: 'silent' }), engine: new FlowEngine(pool), publishMonitor: async () => {} };
  const results: unknown[] = [];
  const data: RelayedJobData = { jobRowId, payload };
  for (let i = 0; i < times; i++) results.push(await emailProcessor.process({ name, data } as Job<RelayedJobData>, context));
  return results;
}

/** The one-click unsubscribe headers of a received reminder, and the token they carry. */
function oneClickOf(mail: ReceivedMail) {
  const header = mail.headers.get('list-unsubscribe') ?? '';
  const url = new URL(/^<(https:\/\/[^>]+)>$/.exec(header)![1]!);
  return { url, post: mail.headers.get('list-unsubscribe-post') };
}

describe('the abandoned-assessment reminder', () => {
  it('goes out through the worker with a working resume link and a working one-click unsubscribe', async () => {
    // a database of its own: the relay below claims every pending job of the database it runs on
    const own = await openDatabase();
    onTestFinished(async () => {
      await own.pool.end();
      await own.drop();
    });
    const flow = await abandonedFlow(own.pool);
    await insertJob(own.pool, {
      queue: 'email',
      name: 'assessment-reminder',
      payload: { flowId: flow.flowId, request: { leadId: flow.leadId } },
      flowId: flow.flowId,
      leadId: flow.leadId,
    });
    await buildTestWorker({ pool: own.pool, config: own.config }, { queues: ['email'] });
    await until(async () => (await outboxOf(flow.leadId, own.pool))[0]?.status === 'sent');

    const [mail] = mailsTo(flow.email);
    expect(mailsTo(flow.email)).toHaveLength(1);
    expect(mail!.subject).toBe('Your leadership assessment is waiting for you');
    expect(mail!.text).toMatch(/^Hi Grace,/);
    expect(mail!.headers.get('reply-to')).toBe('coach@coach.example.com');
    const resume = new URL(/Finish your assessment: (\S+)/.exec(mail!.text)![1]!);
    expect(resume.origin + resume.pathname).toBe(`${PUBLIC_URL}/resume`);
    expect(await checkResumeToken(own.pool, resume.searchParams.get('token')!)).toEqual({ status: 'valid', flowId: flow.flowId });
    expect(mail!.html).toContain(`href="${resume.href.replaceAll('&', '&#38;')}"`);

    const { url, post } = oneClickOf(mail!);
    expect(post).toBe('List-Unsubscribe=One-Click');
    expect(url.origin + url.pathname).toBe(`${PUBLIC_URL}/api/email/unsubscribe`);
    const page = /Unsubscribe from reminders: (\S+)/.exec(mail!.text)![1]!;
    expect(page).toBe(`${PUBLIC_URL}/unsubscribe?token=${url.searchParams.get('token')}`);
    expect(await outboxOf(flow.leadId, own.pool)).toEqual([
      { kind: 'assessment_reminder', status: 'sent', headers: { 'List-Unsubscribe': `<${url.href}>`, 'List-Unsubscribe-Post': post } },
    ]);

    // the mail client's one-click button: a POST of RFC 8058's body to the header's address
    const web = await buildTestApp({ config: own.config, sharing: { pool: own.pool } });
    onTestFinished(() => web.close());
    const clicked = await web.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.statusCode, clicked.body).toBe(200);
    expect(await isUnsubscribed(own.pool, flow.email.toUpperCase())).toBe(true);
  });

  it('is written and sent once when its job runs twice (a retry after a crash)', async () => {
    const flow = await abandonedFlow();
    const [first, second] = await runReminder('assessment-reminder', flow, 2);
    expect(first).toMatchObject({ status: 'sent' });
    expect(second).toMatchObject({ status: 'sent', repeated: true });
    expect(mailsTo(flow.email)).toHaveLength(1);
    expect(await outboxOf(flow.leadId)).toHaveLength(1);
  });

  it('sends nothing once the assessment went on to be graded', async () => {
    const graded = await seedResultsFlow(pool, 'homework');
    expect(await runReminder('assessment-reminder', graded)).toEqual([{ skipped: 'the assessment went on to results' }]);
    expect(await outboxOf(graded.leadId)).toEqual([]);
  });
});

describe('the paid-but-not-booked reminder', () => {
  it("goes out once, linking to the booking page prefilled with the lead and carrying the flow's booking reference", async () => {
    const paid = await paidFlow();
    const [first, second] = await runReminder('booking-reminder', paid, 2);
    expect(first).toMatchObject({ status: 'sent' });
    expect(second).toMatchObject({ repeated: true });
    expect(mailsTo(paid.email)).toHaveLength(1);
    const [mail] = mailsTo(paid.email);
    expect(mail!.subject).toBe('Book your 45-minute strategy session');
    const booking = new URL(/Book your 45-minute strategy session: (\S+)/.exec(mail!.text)![1]!);
    expect(booking.origin + booking.pathname).toBe(BOOKING_PAGE);
    expect(Object.fromEntries(booking.searchParams)).toEqual({
      name: 'Test Lead',
      email: paid.email,
      utm_content: await bookingReferenceFor(pool, paid.flowId),
      'metadata[ref]': await bookingReferenceFor(pool, paid.flowId),
    });
    expect(booking.searchParams.get('utm_content')).toMatch(/^[0-9a-f]{32}$/);
    expect(oneClickOf(mail!).post).toBe('List-Unsubscribe=One-Click');
    expect(mail!.text).toContain(`${PUBLIC_URL}/unsubscribe?token=`);
    expect(await outboxOf(paid.leadId)).toMatchObject([{ kind: 'booking_reminder', status: 'sent' }]);
  });

  it('sends nothing once the session is booked or the deposit refunded', async () => {
    const booked = await paidFlow([{ type: 'SESSION_BOOKED', provider: 'calendly', startsAt: null }]);
    expect(await runReminder('booking-reminder', booked)).toEqual([{ skipped: 'the session is booked' }]);

    const refunded = await paidFlow();
    await pool.query(
      `INSERT INTO payment_tracking (payment_intent_id, lead_id, flow_id, purpose, amount_cents, status, refunded_at)
       VALUES ($1, $2, $3, 'deposit', 25000, 'refunded', now())`,
      [`pi_${unique()}`, refunded.leadId, refunded.flowId],
    );
    expect(await runReminder('booking-reminder', refunded)).toEqual([{ skipped: 'the deposit was refunded' }]);
    expect([...(await outboxOf(booked.leadId)), ...(await outboxOf(refunded.leadId))]).toEqual([]);
  });
});

describe('who never gets a reminder', () => {
  it('a test flow, a test lead and an unsubscribed address: nothing written or sent, by either reminder', async () => {
    const testFlow = await abandonedFlow();
    await pool.query('UPDATE flows SET testing = true WHERE id = $1', [testFlow.flowId]);
    const testLead = await paidFlow();
    await pool.query("UPDATE leads SET tags = ARRAY['test'] WHERE lead_id = $1", [testLead.leadId]);
    const gone = await paidFlow();
    await pool.query('INSERT INTO email_unsubscribes (email, how) VALUES ($1, $2)', [gone.email, 'page']);

    expect(await runReminder('assessment-reminder', testFlow)).toEqual([{ skipped: 'a test flow' }]);
    expect(await runReminder('booking-reminder', testLead)).toEqual([{ skipped: 'a test flow' }]);
    expect(await runReminder('booking-reminder', gone)).toEqual([{ skipped: 'the address unsubscribed from reminders' }]);
    for (const flow of [testFlow, testLead, gone]) {
      expect(await outboxOf(flow.leadId)).toEqual([]);
      expect(mailsTo(flow.email)).toEqual([]);
    }
  });

  it('an unsubscribed address still gets the results it asked for', async () => {
    const lead = await paidFlow();
    await pool.query('INSERT INTO email_unsubscribes (email, how) VALUES ($1, $2)', [lead.email, 'one_click']);
    const payload = { flowId: lead.flowId, request: { leadId: lead.leadId, result: resultFor('book_call') } };
    const jobRowId = await insertJob(pool, { queue: 'email', name: 'results', payload }, { direct: true });
    const context = { pool, config, log: pino({ level: 'silent' }), engine: new FlowEngine(pool), publishMonitor: async () => {} };
    const data: RelayedJobData = { jobRowId, payload };
    expect(await emailProcessor.process({ name: 'results', data } as Job<RelayedJobData>, context)).toMatchObject({
      status: 'sent',
    });
    expect(mailsTo(lead.email)).toHaveLength(1);
  });
});
