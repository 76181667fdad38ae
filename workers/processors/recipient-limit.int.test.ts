import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { signedInAdmin } from '#test/admin-session.js';
import { seedFlow, seedResultsFlow } from '#test/flows.js';
import { flowClient, promoteTimers, SURVEYS, toSurveyStep } from '#test/journey.js';
import { startSmtpSink, type SmtpSink } from '#test/smtp-sink.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { OVER_RECIPIENT_LIMIT, RECIPIENT_LIMIT } from '#core/email/recipient-limit.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';
import { insertJob, type NewJob } from '#core/queues/outbox.js';
import { NOT_ASKED_FOR } from './follow-up-email.js';

/*
 * The per-recipient limit and mail by consent (decision 0045), through the real server, workers,
 * PostgreSQL, Redis and a real SMTP server: mail to one typed address over every kind and many
 * flows stops at the limit, the rest recorded as skipped with the reason; the coach's own mail is
 * not counted; an owner's whole journey gets every email; a reminder nobody asked for goes nowhere.
 */

let sink: SmtpSink;
let harness: TestApp;
let pool: pg.Pool;

beforeAll(async () => {
  sink = await startSmtpSink();
  harness = await buildTestApp({
    ownDatabase: true,
    listen: true,
    env: { TRUST_PROXY_HOPS: '1', SMTP_URL: sink.url, EMAIL_FROM: 'coach@coach.example.com', COACH_EMAIL: 'coach@coach.example.com' },
  });
  ({ pool } = harness);
});

afterAll(async () => {
  await harness?.close();
  await sink?.close();
});

const address = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
const mailsTo = (email: string) => sink.messages.filter((mail) => mail.envelopeTo.includes(email.toLowerCase()));
let client = 0;
const clientAddress = () => `198.20.0.${++client}`;

async function outboxTo(email: string) {
  const found = await pool.query<{ kind: string; status: string; error: string | null }>(
    'SELECT kind, status, error FROM email_outbox WHERE lower(to_address) = lower($1) ORDER BY created_at',
    [email],
  );
  return found.rows;
}

/** Jobs of the flows or lead given, by status. */
async function jobStatuses(leadId: string) {
  const found = await pool.query<{ status: string; n: number }>(
    "SELECT status, count(*)::int AS n FROM jobs WHERE lead_id = $1 AND queue IN ('email', 'homework') GROUP BY status",
    [leadId],
  );
  return Object.fromEntries(found.rows.map((row) => [row.status, row.n]));
}

/** A contact message through the real route, from a client address of its own. */
async function contact(email: string) {
  const browser = flowClient(harness.url, { headers: { 'x-forwarded-for': clientAddress() } });
  const sent = await browser.call('POST', '/api/functions/send-contact-email', { name: 'Vic Tim', email, message: 'Hello, coach.' });
  expect(sent.status).toBe(200);
}

describe('the per-recipient limit', () => {
  it(`20 emails to one typed address over five kinds and many flows: ${RECIPIENT_LIMIT.max} sent, the rest skipped with the reason and never retried`, async () => {
    await buildTestWorker(harness, { queues: ['email', 'homework'] });
    const victim = address('victim');
    const lead = await createOrUpdateLead(pool, { email: victim, name: 'Vic Tim' });
    // proven, so the abandoned-assessment reminders are due and count too
    await pool.query('UPDATE leads SET email_proven_at = now() WHERE lead_id = $1', [lead.leadId]);

    const jobs: NewJob[] = [];
    const leadJob = (queue: 'email' | 'homework', name: string, flowId: string, request: Record<string, unknown>) =>
      jobs.push({ queue, name, payload: { flowId, request: { leadId: lead.leadId, ...request } }, flowId, leadId: lead.leadId });
    for (let i = 0; i < 5; i++) {
      const graded = await seedResultsFlow(pool, 'homework', victim);
      leadJob('email', 'results', graded.flowId, { result: resultFor('homework') });
    }
    for (let i = 0; i < 5; i++) {
      const paid = [
        { type: 'CONTINUE' },
        { type: 'PAY_DEPOSIT' },
        { type: 'PAYMENT_CONFIRMED', paymentIntentId: `pi_${i}_${randomBytes(4).toString('hex')}` },
      ];
      const payer = await seedResultsFlow(pool, 'book_call', victim, undefined, paid);
      leadJob('email', 'booking-reminder', payer.flowId, {});
    }
    for (let i = 0; i < 3; i++) {
      const chose = await seedResultsFlow(pool, 'homework', victim, undefined, [{ type: 'CONTINUE' }, { type: 'CHOOSE_FREE_RESOURCES' }]);
      leadJob('homework', 'send-homework', chose.flowId, { source: 'free_resources', diagnosticData: resultFor('homework') });
    }
    for (let i = 0; i < 3; i++) {
      const capture = [
        { type: 'CAPTURE_SUBMIT', name: 'Vic Tim', email: victim },
        { type: 'LEAD_SAVED', leadId: lead.leadId },
      ];
      const abandoned = await seedFlow(pool, 'assessmentFlow', capture, { leadId: lead.leadId });
      leadJob('email', 'assessment-reminder', abandoned, {});
    }
    // all at once: the workers deliver them concurrently
    await Promise.all([...jobs.map((job) => insertJob(pool, job)), ...Array.from({ length: 4 }, () => contact(victim))]);
    expect(jobs.length + 4).toBe(20);

    await until(
      async () => (await outboxTo(victim)).filter((row) => row.status === 'sent' || row.status === 'skipped').length === 20,
      60_000,
    );
    await until(async () => (await jobStatuses(lead.leadId)).completed === 16, 30_000);
    const rows = await outboxTo(victim);
    const sent = rows.filter((row) => row.status === 'sent');
    const skipped = rows.filter((row) => row.status === 'skipped');
    expect(sent).toHaveLength(RECIPIENT_LIMIT.max);
    expect(skipped).toHaveLength(20 - RECIPIENT_LIMIT.max);
    expect(new Set(skipped.map((row) => row.error))).toEqual(new Set([OVER_RECIPIENT_LIMIT]));
    expect(mailsTo(victim)).toHaveLength(RECIPIENT_LIMIT.max);
    // every kind was sent to the address or counted against it
    expect(new Set(rows.map((row) => row.kind))).toEqual(
      new Set(['results', 'booking_reminder', 'free_resources', 'assessment_reminder', 'contact_confirmation']),
    );
    // the coach's copies of the four messages are not the typed address's mail: every one went
    const notified = async () =>
      (
        await pool.query<{ status: string }>("SELECT status FROM email_outbox WHERE kind = 'contact_notification' AND reply_to = $1", [
          victim,
        ])
      ).rows.map((row) => row.status);
    await until(async () => (await notified()).filter((status) => status === 'sent').length === 4);
    expect(await notified()).toEqual(['sent', 'sent', 'sent', 'sent']);
    // nothing failed or waits to retry
    expect(await jobStatuses(lead.leadId)).toEqual({ completed: 16 });

    // the lead's page says why each was not sent, on the email and on its job
    const admin = await signedInAdmin(pool);
    const page = await fetch(`${harness.url}/api/admin/leads/${lead.leadId}`, { headers: admin.headers });
    const detail = (await page.json()) as {
      emails: Array<{ status: string; error: string | null }>;
      jobs: Array<{ status: string; skipped: string | null }>;
    };
    const skippedOfLead = skipped.filter((row) => row.kind !== 'contact_confirmation').length;
    expect(detail.emails.filter((email) => email.status === 'skipped').map((email) => email.error)).toEqual(
      Array(skippedOfLead).fill(OVER_RECIPIENT_LIMIT),
    );
    expect(detail.jobs.filter((job) => job.skipped === OVER_RECIPIENT_LIMIT).length).toBeGreaterThan(0);

    // another address has its own count
    const other = address('other');
    await contact(other);
    await until(async () => (await outboxTo(other))[0]?.status === 'sent');
  });
});

describe('mail by consent', () => {
  it("an owner's whole journey (capture, results, receipt, a reminder, homework, a contact reply) gets every email", async () => {
    const { queues } = await buildTestWorker(harness, { queues: ['grading', 'email', 'homework', 'payments', 'timers'] });
    const owner = address('owner');
    const browser = flowClient(harness.url, { headers: { 'x-forwarded-for': clientAddress() } });
    const { flowId, leadId } = await toSurveyStep(browser, pool, owner, 'Olive Owner');
    await browser.send(flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call });
    await until(async () => (await browser.get(flowId)).state === 'results', 30_000);
    await browser.send(flowId, { type: 'CONTINUE' });
    await browser.send(flowId, { type: 'PAY_DEPOSIT' });
    // the test payment confirms itself after its timer
    await until(async () => {
      await promoteTimers(pool, queues, flowId);
      return (await browser.get(flowId)).state.startsWith('payment_success');
    }, 30_000);
    // the reminder to book, a day later: promoted now
    await until(async () => {
      await promoteTimers(pool, queues, flowId);
      return (await outboxTo(owner)).some((row) => row.kind === 'booking_reminder');
    }, 30_000);

    // free resources from another assessment of the same owner's browser
    const visitor = (await pool.query<{ visitor_id: string }>('SELECT visitor_id FROM flows WHERE id = $1', [flowId])).rows[0]!;
    const second = await seedResultsFlow(pool, 'homework', owner, { visitorId: visitor.visitor_id, cookie: '' });
    await browser.send(second.flowId, { type: 'CONTINUE' });
    await browser.send(second.flowId, { type: 'CHOOSE_FREE_RESOURCES' });
    await contact(owner);

    const expected = ['results', 'deposit_receipt', 'booking_reminder', 'free_resources', 'contact_confirmation'];
    await until(async () => (await outboxTo(owner)).filter((row) => row.status === 'sent').length === expected.length, 30_000);
    const rows = await outboxTo(owner);
    expect(rows.map((row) => row.kind).sort()).toEqual([...expected].sort());
    expect(rows.every((row) => row.status === 'sent' && row.error === null)).toBe(true);
    expect(mailsTo(owner)).toHaveLength(expected.length);
    expect((await pool.query('SELECT 1 FROM jobs WHERE lead_id = $1 AND status = $2', [leadId, 'failed'])).rowCount).toBe(0);
  });

  it('the abandoned-assessment reminder goes to a proven address only; a typed one gets nothing, and the job says why', async () => {
    await buildTestWorker(harness, { queues: ['email'] });
    const reminderTo = async (proven: boolean) => {
      const email = address(proven ? 'proven' : 'typed');
      const lead = await createOrUpdateLead(pool, { email, name: 'Whoever Typed' });
      if (proven) await pool.query('UPDATE leads SET email_proven_at = now() WHERE lead_id = $1', [lead.leadId]);
      const flowId = await seedFlow(
        pool,
        'assessmentFlow',
        [
          { type: 'CAPTURE_SUBMIT', name: 'Whoever Typed', email },
          { type: 'LEAD_SAVED', leadId: lead.leadId },
        ],
        { leadId: lead.leadId },
      );
      const payload = { flowId, request: { leadId: lead.leadId } };
      const jobId = await insertJob(pool, { queue: 'email', name: 'assessment-reminder', payload, flowId, leadId: lead.leadId });
      await until(async () => (await pool.query("SELECT 1 FROM jobs WHERE id = $1 AND status = 'completed'", [jobId])).rowCount === 1);
      const job = await pool.query<{ result: Record<string, unknown> }>('SELECT result FROM jobs WHERE id = $1', [jobId]);
      return { email, result: job.rows[0]!.result };
    };
    const typed = await reminderTo(false);
    expect(typed.result).toEqual({ skipped: NOT_ASKED_FOR });
    expect(await outboxTo(typed.email)).toEqual([]);
    expect(mailsTo(typed.email)).toEqual([]);

    const proven = await reminderTo(true);
    expect(proven.result).toMatchObject({ status: 'sent' });
    expect(mailsTo(proven.email)).toHaveLength(1);
  });
});
