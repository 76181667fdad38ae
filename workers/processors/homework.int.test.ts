import { Queue, type Job } from 'bullmq';
import type pg from 'pg';
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { flowAwaitingGrading, seedResultsFlow } from '#test/flows.js';
import { injectAs } from '#test/visitor.js';
import { buildTestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { FlowEngine } from '#core/flows/engine.js';
import { startSmtpSink, type SmtpSink } from '#test/smtp-sink.js';
import type { RelayedJobData } from '#core/queues/relay.js';
import { recordJobEmail } from '#core/email/outbox.js';
import { resourcesFor } from '#core/email/resources.js';
import { retryJob } from '#server/admin/jobs.js';
import { finalizeFailed } from '../tracked.js';
import type { Config } from '#core/config/index.js';
import { homeworkProcessor } from './homework.js';

type Seeded = Awaited<ReturnType<typeof seedResultsFlow>>;
type Chosen = Awaited<ReturnType<typeof chooseFreeResources>>;

/* Each test has a database and queue prefix of its own: no other relay or worker meets its jobs. */
async function setup(sink: SmtpSink | null) {
  const { app, pool, config, close } = await buildTestApp({
    ownDatabase: true,
    env: { EMAIL_FROM: 'coach@coach.example.com' },
    fakes: { smtp: sink?.url },
  });
  onTestFinished(close);
  // the flow's own visitor, as their browser sends it
  const send = async ({ flowId, visitorCookie }: Seeded, type: string) => {
    const response = await injectAs(app, { visitorCookie })({
      method: 'POST',
      url: `/api/flows/${flowId}/events`,
      payload: { event: { type } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  return { pool, config, send };
}

async function flowOf(pool: pg.Pool, flowId: string) {
  const row = await pool.query<{ state: string; snapshot: { context: { notice: unknown } } }>(
    'SELECT state, snapshot FROM flows WHERE id = $1',
    [flowId],
  );
  return row.rows[0]!;
}

/** A homework flow (graded by the fixture's result, or `graded`) that chose free resources: the flow is sending and its homework job is written. */
async function chooseFreeResources(pool: pg.Pool, send: (seeded: Seeded, type: string) => Promise<{ state: string }>, graded?: Seeded) {
  const seeded = graded ?? (await seedResultsFlow(pool, 'homework'));
  expect((await send(seeded, 'CONTINUE')).state).toBe('maybe_flow');
  expect((await send(seeded, 'CHOOSE_FREE_RESOURCES')).state).toBe('homework_processing.sending');
  const job = await pool.query<{ id: string; payload: Record<string, unknown> }>(
    "SELECT id, payload FROM jobs WHERE flow_id = $1 AND queue = 'homework'",
    [seeded.flowId],
  );
  expect(job.rows).toHaveLength(1);
  return { ...seeded, job: job.rows[0]! };
}

/**
 * The homework job fails for good without finishing, as when a worker died on it twice: BullMQ
 * fails it ("stalled more than allowable limit") and the worker finalises it, and the flow hears
 * HOMEWORK_FAILED. With `emailWritten`, the worker died after writing the email and before
 * sending it (the email is then marked failed).
 */
async function failForGood(pool: pg.Pool, config: Config, chosen: Chosen, emailWritten: boolean) {
  const { job, leadId, email } = chosen;
  const queue = new Queue('homework', { connection: { url: config.REDIS_URL! }, prefix: config.QUEUE_PREFIX });
  await queue.remove(job.id);
  await queue.close();
  if (emailWritten) {
    const draft = {
      kind: 'free_resources' as const,
      to: email,
      leadId,
      subject: 'Your free leadership resources',
      text: 'Hi',
      html: '<p>Hi</p>',
    };
    await recordJobEmail(pool, job.id, draft);
  }
  const context = { pool, log: pino({ level: 'silent' }), config, engine: new FlowEngine(pool), publishMonitor: async () => {} };
  const bullJob = { id: job.id, attemptsStarted: 2, data: { jobRowId: job.id, payload: job.payload } } as Job<RelayedJobData>;
  await finalizeFailed(homeworkProcessor, context, bullJob, new Error('job stalled more than allowable limit'));
}

describe('homework processor', () => {
  it('emails the free resources with a link to the PDF report over SMTP and moves the flow to homework_processing.sent', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, config, send } = await setup(sink);
    // graded by the grading worker, which stores the result the report is drawn from
    const graded = await flowAwaitingGrading(pool, 'homework');
    await buildTestWorker({ pool, config }, { queues: ['grading', 'homework'], processors: { homework: homeworkProcessor } });
    await until(async () => (await flowOf(pool, graded.flowId)).state === 'results');
    const { archetype, diagnostic_id: diagnosticId } = (
      await pool.query('SELECT archetype, diagnostic_id FROM assessment_results WHERE flow_id = $1', [graded.flowId])
    ).rows[0];
    const { flowId, email, leadId, job } = await chooseFreeResources(pool, send, graded);
    await until(async () => (await flowOf(pool, flowId)).state === 'homework_processing.sent');

    expect(sink.messages).toHaveLength(1);
    const mail = sink.messages[0]!;
    expect(mail.envelopeTo).toEqual([email]);
    expect(mail.envelopeFrom).toBe('coach@coach.example.com');
    expect(mail.subject).toBe(`Your free leadership resources: ${archetype}`);
    expect(mail.text).toMatch(/^Hi Test,/);
    const reading = resourcesFor(archetype, 'free_resources').readings[0]!;
    expect(mail.text).toContain(`${reading.title}, by ${reading.author}`);
    expect(mail.text).toContain('ONE EXERCISE TO TRY THIS WEEK');
    expect(mail.html).toContain(reading.title);
    // the report is linked, signed for its diagnostic, and not attached
    expect(mail.attachments).toEqual([]);
    expect(mail.text).toMatch(/The link is personal and works until \d{1,2} \w+ \d{4}\./);
    const link = /^Download Report: (\S+)$/m.exec(mail.text)![1]!;
    expect(new URL(link).searchParams.get('token')).toMatch(new RegExp(`^${diagnosticId}\\.`));
    expect((await pool.query('SELECT 1 FROM report_pdfs')).rowCount).toBe(0);

    const outbox = await pool.query('SELECT kind, lead_id, job_id, to_address, status, provider_message_id, attachments FROM email_outbox');
    expect(outbox.rows).toEqual([
      {
        kind: 'free_resources',
        lead_id: leadId,
        job_id: job.id,
        to_address: email,
        status: 'sent',
        provider_message_id: mail.headers.get('message-id'),
        attachments: [],
      },
    ]);
    const events = await pool.query("SELECT type, origin FROM flow_events WHERE flow_id = $1 AND type = 'HOMEWORK_SENT'", [flowId]);
    expect(events.rows).toEqual([{ type: 'HOMEWORK_SENT', origin: 'worker' }]);

    // A retry of the same job (a crash after sending) finds its email sent and sends nothing more.
    const context = { pool, log: pino({ level: 'silent' }), config, engine: new FlowEngine(pool), publishMonitor: async () => {} };
    const rerun = await homeworkProcessor.process({ data: { jobRowId: job.id, payload: job.payload } } as Job<RelayedJobData>, context);
    expect(rerun).toMatchObject({ status: 'sent', repeated: true });
    expect(sink.messages).toHaveLength(1);
    expect((await pool.query('SELECT 1 FROM email_outbox')).rowCount).toBe(1);
  });

  it('emails the paid four-week programme after a homework payment, and the flow moves to payment_success', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, config, send } = await setup(sink);
    const seeded = await seedResultsFlow(pool, 'homework');
    const { flowId, email } = seeded;
    await send(seeded, 'CONTINUE');
    expect((await send(seeded, 'PAY_FOR_HOMEWORK')).state).toBe('payment');
    // the payment service's verification, applied as the server does
    const engine = new FlowEngine(pool);
    expect((await engine.apply(flowId, { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_homework' }, 'server')).state).toBe(
      'homework_processing.sending',
    );

    await buildTestWorker({ pool, config }, { queues: ['homework'], processors: { homework: homeworkProcessor } });
    await until(async () => (await flowOf(pool, flowId)).state === 'payment_success.confirmed');

    expect(sink.messages).toHaveLength(1);
    const mail = sink.messages[0]!;
    expect(mail.envelopeTo).toEqual([email]);
    expect(mail.subject).toBe('Your four-week leadership homework: Emerging Leader');
    expect(mail.text).toContain('Thank you for your deposit');
    expect(mail.text).toContain('4. Week 4: ');
    // a result the grading worker did not store (the fixture's) has no report to link: none is promised
    expect(mail.attachments).toEqual([]);
    expect(mail.text).not.toMatch(/report/i);
    expect((await flowOf(pool, flowId)).snapshot.context.notice).toBeNull();
    const outbox = await pool.query('SELECT kind, status FROM email_outbox');
    expect(outbox.rows).toEqual([{ kind: 'homework', status: 'sent' }]);
  });

  it('records the email when SMTP is not configured, and the flow still moves on', async () => {
    const { pool, config, send } = await setup(null);
    const { flowId } = await chooseFreeResources(pool, send);
    await buildTestWorker({ pool, config }, { queues: ['homework'], processors: { homework: homeworkProcessor } });
    await until(async () => (await flowOf(pool, flowId)).state === 'homework_processing.sent');
    const outbox = await pool.query('SELECT kind, status FROM email_outbox');
    expect(outbox.rows).toEqual([{ kind: 'free_resources', status: 'recorded' }]);
  });

  it('after its retries, tells the flow HOMEWORK_FAILED, which shows the free-resources failure, and marks the email failed', async () => {
    const sink = await startSmtpSink({ reject: 'Mailbox full' });
    onTestFinished(() => sink.close());
    const { pool, config, send } = await setup(sink);
    const { flowId, job } = await chooseFreeResources(pool, send);
    // fewer attempts than the default five keep the test short; the backoff is the queue's own. The
    // server already added the job with five, so take it back and let the relay add it again.
    await pool.query("UPDATE jobs SET max_attempts = 2, status = 'pending' WHERE id = $1", [job.id]);
    const queue = new Queue('homework', { connection: { url: config.REDIS_URL! }, prefix: config.QUEUE_PREFIX });
    await queue.remove(job.id);
    await queue.close();

    await buildTestWorker({ pool, config }, { queues: ['homework'], processors: { homework: homeworkProcessor } });
    await until(async () => (await flowOf(pool, flowId)).state === 'maybe_flow', 30_000);

    expect((await flowOf(pool, flowId)).snapshot.context.notice).toEqual({
      title: null,
      description: 'Failed to send resources. Please try again.',
    });
    expect(sink.attempts).toBe(2);
    const outbox = await pool.query('SELECT status, error FROM email_outbox');
    expect(outbox.rows).toEqual([{ status: 'failed', error: expect.stringContaining('Mailbox full') }]);
    const jobRow = await pool.query('SELECT status, attempts FROM jobs WHERE id = $1', [job.id]);
    expect(jobRow.rows).toEqual([{ status: 'failed', attempts: 2 }]);
  });

  it('a job that failed for good, chosen again by the visitor, then retried by the coach: one email, the later job sending it', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, config, send } = await setup(sink);
    const chosen = await chooseFreeResources(pool, send);
    await failForGood(pool, config, chosen, true);
    expect((await flowOf(pool, chosen.flowId)).state).toBe('maybe_flow');

    // the visitor, told it failed, chooses again: a second job for the same homework
    expect((await send(chosen, 'CHOOSE_FREE_RESOURCES')).state).toBe('homework_processing.sending');
    const { queues } = await buildTestWorker({ pool, config }, { queues: ['homework'], processors: { homework: homeworkProcessor } });
    await until(async () => (await flowOf(pool, chosen.flowId)).state === 'homework_processing.sent');
    expect(sink.messages).toHaveLength(1);

    // the coach's Retry of the failed first job finds the homework sent and sends nothing
    expect(await retryJob(pool, queues, chosen.job.id)).toHaveProperty('job');
    await until(async () => (await pool.query('SELECT status FROM jobs WHERE id = $1', [chosen.job.id])).rows[0]?.status === 'completed');
    const rerun = await pool.query('SELECT result FROM jobs WHERE id = $1', [chosen.job.id]);
    expect(rerun.rows[0].result).toMatchObject({ skipped: 'the flow already has this homework', status: 'sent' });
    expect(sink.messages).toHaveLength(1);
    const outbox = await pool.query(
      "SELECT e.kind, e.status FROM email_outbox e JOIN jobs j ON j.id = e.job_id WHERE j.flow_id = $1 AND j.queue = 'homework'",
      [chosen.flowId],
    );
    expect(outbox.rows).toEqual([{ kind: 'free_resources', status: 'sent' }]);
    expect((await flowOf(pool, chosen.flowId)).state).toBe('homework_processing.sent');
  });

  it("a job that failed for good, retried by the coach before the visitor chooses again: one email, and the visitor's choice finds it sent", async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, config, send } = await setup(sink);
    const chosen = await chooseFreeResources(pool, send);
    await failForGood(pool, config, chosen, false);
    expect((await flowOf(pool, chosen.flowId)).state).toBe('maybe_flow');

    const { queues } = await buildTestWorker({ pool, config }, { queues: ['homework'], processors: { homework: homeworkProcessor } });
    expect(await retryJob(pool, queues, chosen.job.id)).toHaveProperty('job');
    await until(async () => (await pool.query('SELECT status FROM jobs WHERE id = $1', [chosen.job.id])).rows[0]?.status === 'completed');
    expect(sink.messages).toHaveLength(1);

    expect((await send(chosen, 'CHOOSE_FREE_RESOURCES')).state).toBe('homework_processing.sending');
    await until(async () => (await flowOf(pool, chosen.flowId)).state === 'homework_processing.sent');
    expect(sink.messages).toHaveLength(1);
    const outbox = await pool.query('SELECT kind, status FROM email_outbox');
    expect(outbox.rows).toEqual([{ kind: 'free_resources', status: 'sent' }]);
  });
});
