import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { flowAwaitingGrading, seedFlow, surveyedEvents } from '#test/flows.js';
import { isolatedConfig } from '#test/helpers.js';
import { buildTestApp } from '#test/test-app.js';
import { injectAs } from '#test/visitor.js';
import { startSmtpSink, type SmtpSink } from '#test/smtp-sink.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { createPool } from '#core/db/pool.js';
import { FlowEngine } from '#core/flows/engine.js';
import { signLink } from '#core/email/follow-up-signing.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';
import { reportLink } from '#core/reports/report-link.js';
import { sendResultsEmail } from './results-email.js';

const run = promisify(execFile);

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

/** The text pdftotext reads from a PDF (poppler, as the report's rendering test uses). */
async function pdfToText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'report-link-'));
  try {
    await writeFile(path.join(dir, 'report.pdf'), pdf);
    return (await run('pdftotext', [path.join(dir, 'report.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The app and a worker grading and emailing, on a database of their own, mail caught by the sink. */
async function served(sink: SmtpSink) {
  const harness = await buildTestApp({
    ownDatabase: true,
    listen: true,
    env: { EMAIL_FROM: 'coach@coach.example.com', PUBLIC_URL: 'https://coach.example.com' },
    fakes: { smtp: sink.url },
  });
  onTestFinished(harness.close);
  await buildTestWorker(harness, { queues: ['grading', 'email'] });
  /** Opens a link of an email on the app (the email names the public address), as a browser would. */
  const open = (link: string, headers: Record<string, string> = {}) => {
    const url = new URL(link);
    return fetch(`${harness.url}${url.pathname}${url.search}`, { headers });
  };
  return { ...harness, open };
}

/** The report link of an email's text (the link block's "label: address" line). */
function reportLinkIn(text: string): string {
  const found = /^Download Report: (\S+)$/m.exec(text);
  if (!found) throw new Error(`No report link in:\n${text}`);
  return found[1]!;
}

const storedReports = (pool: pg.Pool) =>
  pool.query<{ diagnostic_id: string; created_at: Date; xmin: string; size: number }>(
    'SELECT diagnostic_id, created_at, xmin::text, length(pdf) AS size FROM report_pdfs',
  );

describe('the results email', () => {
  it('goes out once the assessment is graded: the archetype, the scores, the next step and a link to the report, to the lead', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool } = await served(sink);
    const { flowId, leadId, email } = await flowAwaitingGrading(pool, 'book_call', 'Grace Hopper');

    await until(() => sink.messages.length === 1);
    const graded = await pool.query<{ diagnostic_id: string; result: { archetype: string; compositeScore: number } }>(
      'SELECT diagnostic_id, result FROM assessment_results WHERE flow_id = $1',
      [flowId],
    );
    const { diagnostic_id: diagnosticId, result } = graded.rows[0]!;
    const mail = sink.messages[0]!;
    expect(mail.envelopeTo).toEqual([email]);
    expect(mail.subject).toBe(`Your leadership results: ${result.archetype}`);
    expect(mail.text).toMatch(/^Hi Grace,/);
    expect(mail.text).toContain(`YOUR ARCHETYPE: ${result.archetype.toUpperCase()}`);
    expect(mail.text).toContain(`Leadership score: ${Math.round(result.compositeScore)} / 100`);
    expect(mail.text).toMatch(/Leadership Effectiveness: \d+ \/ 100/);
    expect(mail.text).toContain('YOUR NEXT STEP: BOOK YOUR 45-MINUTE STRATEGY SESSION');
    expect(mail.text).toContain('https://coach.example.com');
    // the report is a signed link that works for 30 days, said in words; nothing is attached
    expect(mail.attachments).toEqual([]);
    const link = reportLinkIn(mail.text);
    expect(link).toMatch(/^https:\/\/coach\.example\.com\/api\/reports\/link\?token=/);
    // it names the report's diagnostic, signed: the id alone opens nothing (the next test)
    expect(new URL(link).searchParams.get('token')).toMatch(new RegExp(`^${diagnosticId}\\.[0-9a-z]+\\.[\\w-]{43}$`));
    const until30 = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(Date.now() + 30 * 86_400_000));
    expect(mail.text).toContain(`The link is personal and works until ${until30}.`);
    expect(mail.html).toContain(`href="${link.replaceAll('&', '&#38;')}"`);

    // the sink has the mail before the worker's transaction marks its row sent
    await until(async () => (await pool.query("SELECT 1 FROM email_outbox WHERE status = 'sent'")).rowCount === 1);
    const outbox = await pool.query('SELECT kind, lead_id, to_address, status, attachments FROM email_outbox');
    expect(outbox.rows).toEqual([{ kind: 'results', lead_id: leadId, to_address: email, status: 'sent', attachments: [] }]);
    // neither grading nor the email drew a report
    expect((await storedReports(pool)).rows).toEqual([]);
  });

  it('opens the report by its link: drawn at the first open and stored, the stored bytes served after', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, open } = await served(sink);
    const { flowId } = await flowAwaitingGrading(pool, 'homework', 'Grace Hopper');
    await until(() => sink.messages.length === 1);
    const link = reportLinkIn(sink.messages[0]!.text);
    const { archetype } = (await pool.query('SELECT archetype FROM assessment_results WHERE flow_id = $1', [flowId])).rows[0];

    const first = await open(link);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(first.headers.get('content-disposition')).toMatch(/^inline; filename="leadership-report-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    const pdf = Buffer.from(await first.arrayBuffer());
    const text = await pdfToText(pdf);
    expect(text).toContain(archetype);
    expect(text).toContain('Prepared for Grace Hopper');
    expect(text).toContain('Start your homework');
    const stored = (await storedReports(pool)).rows;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.size).toBe(pdf.length);

    // opened again: the same bytes, from the same row, not drawn and written again
    const second = await open(link);
    expect(second.status).toBe(200);
    expect(Buffer.from(await second.arrayBuffer()).equals(pdf)).toBe(true);
    expect((await storedReports(pool)).rows).toEqual(stored);
  });

  it("answers a changed, expired or borrowed link with 404 and stores nothing; lead A's link never opens lead B's report", async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, open } = await served(sink);
    const a = await flowAwaitingGrading(pool, 'nurture', 'Ada Lovelace');
    const b = await flowAwaitingGrading(pool, 'nurture', 'Barbara Liskov');
    await until(() => sink.messages.length === 2);
    const linkOf = (email: string) => reportLinkIn(sink.messages.find((mail) => mail.envelopeTo[0] === email)!.text);
    const diagnosticOf = async (flowId: string) =>
      (await pool.query<{ id: string }>('SELECT diagnostic_id AS id FROM assessment_results WHERE flow_id = $1', [flowId])).rows[0]!.id;
    const [aDiagnostic, bDiagnostic] = [await diagnosticOf(a.flowId), await diagnosticOf(b.flowId)];
    const aLink = new URL(linkOf(a.email));
    const token = aLink.searchParams.get('token')!;
    const [, expires, signature] = token.split('.');
    const withToken = (value: string) => `https://coach.example.com/api/reports/link?token=${encodeURIComponent(value)}`;

    const refused = {
      // lead B's diagnostic under lead A's expiry and signature
      borrowed: withToken(`${bDiagnostic}.${expires}.${signature}`),
      // one character of the signature changed
      tampered: withToken(`${aDiagnostic}.${expires}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`),
      // a later expiry, under the old signature
      extended: withToken(`${aDiagnostic}.${(parseInt(expires!, 36) + 86_400).toString(36)}.${signature}`),
      // a genuine link made 31 days ago
      expired: (await reportLink(pool, 'https://coach.example.com', aDiagnostic, new Date(Date.now() - 31 * 86_400_000))).url,
      // the id alone, or signed as another kind of link
      bare: withToken(aDiagnostic),
      otherKind: withToken(await signLink(pool, 'resume_link', [aDiagnostic, expires!])),
    };
    for (const [name, link] of Object.entries(refused)) {
      const response = await open(link);
      expect(response.status, name).toBe(404);
      expect(response.headers.get('content-type'), name).toMatch(/^application\/json/);
    }
    // a person opening it sees a page saying what happened, and nothing from the link
    const expiredPage = await open(refused.expired, { accept: 'text/html,application/xhtml+xml' });
    expect(expiredPage.status).toBe(404);
    expect(await expiredPage.text()).toMatch(
      /<h1>This report link has expired<\/h1><p>It expired on \d{4}-\d{2}-\d{2}: a report link works for 30 days\./,
    );
    const tamperedPage = await open(refused.tampered, { accept: 'text/html' });
    expect(tamperedPage.status).toBe(404);
    expect(await tamperedPage.text()).toContain('<h1>No report for that link</h1>');
    // a stranger with only the diagnostic id gets the 404 they got before
    expect((await open(`https://coach.example.com/api/reports/${aDiagnostic}.pdf`)).status).toBe(404);
    expect((await storedReports(pool)).rows).toEqual([]);

    // each link opens its own lead's report
    for (const [lead, name] of [
      [a, 'Ada Lovelace'],
      [b, 'Barbara Liskov'],
    ] as const) {
      const response = await open(linkOf(lead.email));
      expect(response.status).toBe(200);
      expect(await pdfToText(Buffer.from(await response.arrayBuffer()))).toContain(`Prepared for ${name}`);
    }
    expect((await storedReports(pool)).rows.map((row) => row.diagnostic_id).sort()).toEqual([aDiagnostic, bDiagnostic].sort());
  });

  it("serves the link and the visitor's own download from one stored report, drawn again after a re-grade", async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, open, app } = await served(sink);
    const graded = await flowAwaitingGrading(pool, 'book_call', 'Grace Hopper');
    await until(() => sink.messages.length === 1);
    const { diagnostic_id: diagnosticId } = (
      await pool.query('SELECT diagnostic_id FROM assessment_results WHERE flow_id = $1', [graded.flowId])
    ).rows[0];
    const own = await injectAs(app, { visitorCookie: graded.visitorCookie })(`/api/reports/${diagnosticId}.pdf`);
    expect(own.statusCode).toBe(200);
    const stored = (await storedReports(pool)).rows;
    expect(stored).toHaveLength(1);
    const byLink = Buffer.from(await (await open(reportLinkIn(sink.messages[0]!.text))).arrayBuffer());
    expect(byLink.equals(own.rawPayload)).toBe(true);
    expect((await storedReports(pool)).rows).toEqual(stored);

    // a re-grade adds a newer result for the diagnostic: the next open draws the report of that one, in place of the old
    await pool.query(
      `INSERT INTO assessment_results (lead_id, flow_id, diagnostic_id, tier, qualification, archetype, total_score, diagnostic_score,
         survey_score, mirror_score, composite_score, gaming_detected, fallback, result, bank_version, grading_version, created_at)
       SELECT lead_id, flow_id, diagnostic_id, 'nurture', 'nurture', archetype, total_score, diagnostic_score, survey_score, mirror_score,
         composite_score, false, fallback, result || '{"qualification": "nurture"}', bank_version, 'grading-2', created_at + interval '1 second'
       FROM assessment_results WHERE flow_id = $1`,
      [graded.flowId],
    );
    const regraded = await pdfToText(Buffer.from(await (await open(reportLinkIn(sink.messages[0]!.text))).arrayBuffer()));
    expect(regraded).toContain('Join the free community');
    const after = (await storedReports(pool)).rows;
    expect(after).toHaveLength(1);
    expect(after[0]!.xmin).not.toBe(stored[0]!.xmin);
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
