import type pg from 'pg';
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

async function setup(sink: SmtpSink) {
  const { config, drop } = await isolatedConfig({
    EMAIL_FROM: 'coach@coach.example.com',
    SMTP_URL: sink.url,
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
    expect(mail.text).toContain(`Overall: ${Math.round(result.compositeScore)} / 100`);
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
});
