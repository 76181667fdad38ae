import type pg from 'pg';
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { seedFlow, surveyedEvents } from '#test/flows.js';
import { isolatedConfig } from '#test/helpers.js';
import { startSmtpSink, type SmtpSink } from '#test/smtp-sink.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { createPool } from '#core/db/pool.js';
import { FlowEngine } from '#core/flows/engine.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';
import { sendResultsEmail } from './results-email.js';

async function setup(sink: SmtpSink | null) {
  const { config, drop } = await isolatedConfig({
    EMAIL_FROM: 'coach@coach.example.com',
    ...(sink ? { SMTP_URL: sink.url } : {}),
    PUBLIC_URL: 'https://coach.example.com',
  });
  const pool = createPool(config.DATABASE_URL!, 6);
  onTestFinished(async () => {
    await pool.end();
    await drop();
  });
  return { pool, config, engine: new FlowEngine(pool) };
}

/** A lead's assessment flow waiting for its grade, as the survey leaves it. */
async function surveyedFlow(pool: pg.Pool, options: { testingMode?: boolean } = {}) {
  const email = `results-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const lead = await createOrUpdateLead(pool, { email, name: 'Grace Hopper' });
  const flowId = await seedFlow(pool, 'assessmentFlow', surveyedEvents({ name: 'Grace Hopper', email, leadId: lead.leadId }), {
    leadId: lead.leadId,
    input: { testingMode: options.testingMode ?? false },
  });
  return { flowId, leadId: lead.leadId, email };
}

describe('the results email', () => {
  it('goes out once the assessment is graded: the archetype, the scores, the next step and the PDF report, to the lead', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, config, engine } = await setup(sink);
    const { flowId, leadId, email } = await surveyedFlow(pool);
    const result = resultFor('book_call');
    // what the grading job does: GRADED, whose effect writes the email job in the same transaction
    await engine.apply(flowId, { type: 'GRADED', result }, 'worker');
    const jobs = await pool.query<{ queue: string; name: string }>("SELECT queue, name FROM jobs WHERE flow_id = $1 AND queue = 'email'", [
      flowId,
    ]);
    expect(jobs.rows).toEqual([{ queue: 'email', name: 'results' }]);

    await buildTestWorker({ pool, config }, { queues: ['email'] });
    await until(() => sink.messages.length === 1);
    const mail = sink.messages[0]!;
    expect(mail.envelopeTo).toEqual([email]);
    expect(mail.subject).toBe(`Your leadership results: ${result.archetype}`);
    expect(mail.text).toMatch(/^Hi Grace,/);
    expect(mail.text).toContain(`YOUR ARCHETYPE: ${result.archetype.toUpperCase()}`);
    expect(mail.text).toContain(`Leadership score: ${Math.round(result.compositeScore)} / 100`);
    expect(mail.text).toMatch(/Leadership Effectiveness: \d+ \/ 100/);
    expect(mail.text).toContain('YOUR NEXT STEP: BOOK YOUR 45-MINUTE STRATEGY SESSION');
    expect(mail.text).toContain('https://coach.example.com');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'leadership-report.pdf', contentType: 'application/pdf' });
    expect(mail.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-');

    // the sink has the mail before the worker's transaction marks its row sent
    await until(async () => (await pool.query("SELECT 1 FROM email_outbox WHERE status = 'sent'")).rowCount === 1);
    const outbox = await pool.query('SELECT kind, lead_id, to_address, status, attachments FROM email_outbox');
    expect(outbox.rows).toEqual([
      {
        kind: 'results',
        lead_id: leadId,
        to_address: email,
        status: 'sent',
        attachments: [{ filename: 'leadership-report.pdf', contentType: 'application/pdf', size: expect.any(Number) }],
      },
    ]);
  });

  it('is not sent for a testing-mode assessment', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, engine } = await setup(sink);
    const { flowId } = await surveyedFlow(pool, { testingMode: true });
    const graded = await engine.apply(flowId, { type: 'GRADED', result: resultFor('book_call') }, 'worker');
    expect(graded.state).toBe('results');
    expect((await pool.query("SELECT 1 FROM jobs WHERE queue = 'email'")).rowCount).toBe(0);
  });

  it('keeps a refused first delivery pending with the error, and the retry sends it: one row, one message', async () => {
    const sink = await startSmtpSink({ reject: 'Mailbox busy', rejectFirst: 1 });
    onTestFinished(() => sink.close());
    const { pool, config, engine } = await setup(sink);
    const { flowId } = await surveyedFlow(pool);
    await engine.apply(flowId, { type: 'GRADED', result: resultFor('homework') }, 'worker');
    await buildTestWorker({ pool, config }, { queues: ['email'] });

    // the refused attempt rolled its transaction back, then kept the row with why it is pending
    await until(async () => (await pool.query("SELECT 1 FROM email_outbox WHERE error LIKE '%Mailbox busy%'")).rowCount === 1);
    const pending = await pool.query(
      "SELECT e.status, j.status AS job_status FROM email_outbox e JOIN jobs j ON j.id = e.job_id WHERE e.kind = 'results'",
    );
    expect(pending.rows[0]?.status).toBe('pending');
    expect(pending.rows[0]?.job_status).not.toBe('completed');

    await until(async () => (await pool.query("SELECT 1 FROM email_outbox WHERE status = 'sent'")).rowCount === 1, 15_000);
    const outbox = await pool.query('SELECT status, error FROM email_outbox');
    expect(outbox.rows).toEqual([{ status: 'sent', error: null }]);
    expect(sink.attempts).toBe(2);
    expect(sink.messages).toHaveLength(1);
    const job = await pool.query("SELECT status, attempts FROM jobs WHERE queue = 'email'");
    expect(job.rows).toEqual([{ status: 'completed', attempts: 2 }]);
  });

  it('without SMTP, is recorded with the job completed in the same commit, and a second delivery of the job adds nothing', async () => {
    const { pool, config, engine } = await setup(null);
    const { flowId, email } = await surveyedFlow(pool);
    await engine.apply(flowId, { type: 'GRADED', result: resultFor('nurture') }, 'worker');
    await buildTestWorker({ pool, config }, { queues: ['email'] });
    await until(async () => (await pool.query("SELECT 1 FROM jobs WHERE queue = 'email' AND status = 'completed'")).rowCount === 1);
    const recorded = await pool.query<{ status: string; to_address: string; job: unknown; xmin: string; job_xmin: string }>(
      `SELECT e.status, e.to_address, j.result->>'status' AS job, e.xmin::text, j.xmin::text AS job_xmin
       FROM email_outbox e JOIN jobs j ON j.id = e.job_id`,
    );
    expect(recorded.rows).toHaveLength(1);
    const row = recorded.rows[0]!;
    expect(row).toMatchObject({ status: 'recorded', to_address: email, job: 'recorded' });
    // one transaction wrote the email row and completed its job
    expect(row.xmin).toBe(row.job_xmin);

    // BullMQ delivering the job again (a stalled job handed to another worker): the row is found, not doubled
    const again = await sendResultsEmail(
      { data: (await pool.query('SELECT id AS "jobRowId", payload FROM jobs WHERE queue = \'email\'')).rows[0] } as never,
      { pool, config, engine, log: pino({ level: 'silent' }), publishMonitor: () => Promise.resolve() },
    );
    expect(again).toMatchObject({ status: 'recorded', repeated: true });
    expect((await pool.query('SELECT 1 FROM email_outbox')).rowCount).toBe(1);
  });
});
