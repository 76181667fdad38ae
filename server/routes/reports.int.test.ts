import { inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archetypeByName, diagnosticScreens } from '#machines/content/index.js';
import { backdater, SURVEYS } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { injectAs, seedVisitor, type InjectVisitor } from '#test/visitor.js';
import { signedInAdmin } from '#test/admin-session.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;
// the visitor whose diagnostics these are, and their browser
let owner: { visitorId: string; cookie: string };
let browser: InjectVisitor;

beforeAll(async () => {
  // a database of its own: the standalone diagnostic is graded by a worker, whose relay claims every pending job
  harness = await buildTestApp({ ownDatabase: true, env: { PUBLIC_URL: 'https://coach.example.com' } });
  ({ app, pool } = harness);
  owner = await seedVisitor(pool);
  browser = injectAs(app, { visitorCookie: owner.cookie });
});

afterAll(() => harness?.close());

/** The text on the pages of a pdfkit PDF: each Flate stream inflated, then its TJ hex strings decoded. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams = [...raw.matchAll(/stream\n([\s\S]*?)\nendstream/g)].map((m) => {
    try {
      return inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      return m[1]!;
    }
  });
  return streams
    .flatMap((content) => content.match(/\[([^\]]*)\] TJ/g) ?? [])
    .map((array) => [...array.matchAll(/<([0-9a-f]*)>/gi)].map((m) => Buffer.from(m[1]!, 'hex').toString('latin1')).join(''))
    .join('\n');
}

const steward = archetypeByName('Reluctant Steward');

/** A lead with a completed diagnostic (and, when given, the assessment graded from it). */
async function seedDiagnostic(assessment?: { tier: string; keyInsights: string[]; gaming?: boolean }) {
  const lead = await createOrUpdateLead(pool, {
    email: `report-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
    name: 'Rosa Parks',
  });
  const diagnostic = await pool.query<{ id: string }>(
    "INSERT INTO diagnostics (lead_id, bank_version, status, completed_at, visitor_id) VALUES ($1, '2.0.0', 'completed', '2026-02-03T10:00:00Z', $2) RETURNING id",
    [lead.leadId, owner.visitorId],
  );
  const diagnosticId = diagnostic.rows[0]!.id;
  const scores = { LER: 61, DCR: 55, TBR: 77, OAD: 68, VIS: 42, FAD: 59 };
  await pool.query(
    `INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version, completed_at)
     VALUES ($1, $2, $3, $4, $5, '2.0.0', 'grading-1.0.0', '2026-02-03T10:00:00Z')`,
    [diagnosticId, lead.leadId, scores, steward.name, steward.narrative],
  );
  if (assessment) {
    const full = {
      archetype: steward.name,
      narrative: steward.narrative,
      scores,
      keyInsights: assessment.keyInsights,
      qualification: assessment.tier,
      fallback: false,
    };
    await pool.query(
      `INSERT INTO assessment_results (lead_id, diagnostic_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score,
         mirror_score, composite_score, gaming_detected, result, bank_version, grading_version)
       VALUES ($1, $2, $3, $3, $4, 60, 60, 60, 60, 60, $5, $6, '2.0.0', 'grading-1.0.0')`,
      // a rushed attempt is stored without a tier, as the grading worker stores one
      [lead.leadId, diagnosticId, assessment.gaming ? null : assessment.tier, steward.name, assessment.gaming ?? false, full],
    );
  }
  return diagnosticId;
}

describe("the coach's reports from the lead page", () => {
  it("opens any lead's report and an email's attached report for a signed-in admin; anyone else is refused", async () => {
    const reportId = await seedDiagnostic({ tier: 'homework', keyInsights: ['You own outcomes but rarely claim the decision.'] });
    const leadId = (await pool.query('SELECT lead_id FROM diagnostics WHERE id = $1', [reportId])).rows[0].lead_id;
    const email = await pool.query<{ id: string }>(
      `INSERT INTO email_outbox (lead_id, kind, to_address, subject, text_body, status, sent_at, attachments)
       VALUES ($1, 'results', 'rosa@example.com', 'Your results', 'Attached.', 'sent', now(), $2) RETURNING id`,
      [leadId, JSON.stringify([{ filename: 'leadership-report.pdf', contentType: 'application/pdf', size: 5120 }])],
    );
    const emailId = email.rows[0]!.id;
    const admin = await signedInAdmin(pool);
    const coach = (url: string) => app.inject({ url, cookies: { [app.sessionCookieName]: admin.cookie } });

    const report = await coach(`/api/admin/reports/${reportId}.pdf`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.headers['content-type']).toBe('application/pdf');
    expect(pdfText(report.rawPayload)).toContain('Prepared for Rosa Parks');
    const attached = await coach(`/api/admin/emails/${emailId}/attachments/0`);
    expect(attached.statusCode, attached.body).toBe(200);
    expect(pdfText(attached.rawPayload)).toContain('Prepared for Rosa Parks');
    // no such attachment, no such report
    expect((await coach(`/api/admin/emails/${emailId}/attachments/1`)).statusCode).toBe(404);
    expect((await coach('/api/admin/reports/00000000-0000-4000-8000-000000000000.pdf')).statusCode).toBe(404);

    // without an admin session: the admin area's refusal; the public URL stays the visitor's own
    const stranger = injectAs(app, { remoteAddress: '203.0.113.12' });
    expect((await stranger(`/api/admin/reports/${reportId}.pdf`)).statusCode).toBe(401);
    expect((await stranger(`/api/admin/emails/${emailId}/attachments/0`)).statusCode).toBe(401);
    expect((await stranger(`/api/reports/${reportId}.pdf`)).statusCode).toBe(404);
  });
});

describe('GET /api/reports/:id.pdf', () => {
  it('serves a diagnostic graded into an assessment as an inline PDF with its insights and tier', async () => {
    const reportId = await seedDiagnostic({ tier: 'homework', keyInsights: ['You own outcomes but rarely claim the decision.'] });
    const response = await browser({ url: `/api/reports/${reportId}.pdf`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    // compressed inside already: sent as it is, whatever the browser accepts
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-disposition']).toBe('inline; filename="leadership-report-2026-02-03.pdf"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Reluctant Steward');
    expect(text).toContain('Prepared for Rosa Parks');
    expect(text).toContain('February 3, 2026');
    expect(text).toContain('You own outcomes but rarely claim');
    expect(text).toContain('Start your homework');
    expect(text).toContain(steward.actions[0]!.slice(0, 30));

    // anyone else, knowing the id, is told what an unknown id is told
    const stranger = await injectAs(app, { remoteAddress: '203.0.113.9' })(`/api/reports/${reportId}.pdf`);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe(`No report for diagnostic ${reportId}`);
  });

  it('serves a diagnostic on its own, and passes over an assessment that was a retake prompt', async () => {
    const reportId = await seedDiagnostic({ tier: 'book_call', keyInsights: ['Gaming'], gaming: true });
    const text = pdfText((await browser(`/api/reports/${reportId}.pdf`)).rawPayload);
    expect(text).toContain('Reluctant Steward');
    expect(text).toContain('Complete the qualification survey');
    expect(text).not.toContain('Gaming');
  });

  it('answers 404 in the error shape for an unknown id, and 400 naming the id for a non-uuid', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await browser(`/api/reports/${unknown}.pdf`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: `No report for diagnostic ${unknown}` });
    const bad = await browser('/api/reports/not-a-uuid.pdf');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('id');
  });
});

describe('POST /api/functions/report-pdf', () => {
  it('is documented in the OpenAPI document with the report route', async () => {
    const document = (await browser('/api/docs/json')).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/reports/{id}.pdf', '/api/functions/report-pdf']));
  });

  it("answers the diagnostic's stable report URL", async () => {
    const diagnosticId = await seedDiagnostic();
    const response = await browser({ method: 'POST', url: '/api/functions/report-pdf', payload: { diagnosticId } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ pdfUrl: `https://coach.example.com/api/reports/${diagnosticId}.pdf` });
    const pdf = await browser(new URL(response.json().pdfUrl).pathname);
    expect(pdf.statusCode).toBe(200);
  });

  it("works with the standalone diagnostic helpers: start, answer every item, the flow's grading job, complete, then the report", async () => {
    const started = await browser({ method: 'POST', url: '/api/diagnostics', payload: {} });
    const { diagnosticId } = started.json();
    for (const screen of diagnosticScreens) {
      const answer =
        screen.type === 'likert'
          ? { id: screen.id, type: 'likert', value: 4, ms: 4000 }
          : {
              id: screen.id,
              type: screen.type,
              value: screen.type === 'ranking' ? screen.choiceIds : screen.choiceIds[0],
              confidence: 3,
              ms: 8000,
            };
      const answered = await browser({ method: 'POST', url: `/api/diagnostics/${diagnosticId}/answers`, payload: { answer } });
      expect(answered.statusCode, answered.body).toBe(200);
    }
    // no report before the flow's grading job has stored a result
    expect((await browser({ method: 'POST', url: '/api/functions/report-pdf', payload: { diagnosticId } })).statusCode).toBe(404);
    await buildTestWorker(harness, { queues: ['grading'] });
    const completed = await browser({ method: 'POST', url: `/api/diagnostics/${diagnosticId}/complete` });
    expect(completed.statusCode, completed.body).toBe(200);

    const link = await browser({ method: 'POST', url: '/api/functions/report-pdf', payload: { diagnosticId } });
    expect(link.statusCode, link.body).toBe(200);
    const pdf = await browser(new URL(link.json().pdfUrl).pathname);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain(completed.json().diagnostic.archetype);
  });

  it('goes on from a finished standalone diagnostic to the survey, the address and the results; its report then shows the tier', async () => {
    const started = await browser({ method: 'POST', url: '/api/diagnostics', payload: {} });
    const { diagnosticId, flowId: diagnosticFlowId } = started.json();
    const backdate = backdater(pool);
    for (const screen of diagnosticScreens) {
      // answered at a thoughtful pace, as the server measures it: a steady visitor, not a rushed one
      await backdate(diagnosticFlowId, 9000);
      const answer =
        screen.type === 'likert'
          ? { id: screen.id, type: 'likert', value: [2, 4, 3, 5][screen.id.length % 4], ms: 6000 }
          : {
              id: screen.id,
              type: screen.type,
              value: screen.type === 'ranking' ? screen.choiceIds : screen.choiceIds[1],
              confidence: 4,
              ms: 9000,
            };
      expect((await browser({ method: 'POST', url: `/api/diagnostics/${diagnosticId}/answers`, payload: { answer } })).statusCode).toBe(
        200,
      );
    }
    // nobody else can go on from it, knowing its id: 404 and no flow
    const flowsBefore = Number((await pool.query('SELECT count(*) FROM flows')).rows[0].count);
    const stranger = await injectAs(app, { remoteAddress: '203.0.113.10' })({
      method: 'POST',
      url: '/api/flows',
      payload: { diagnosticId },
    });
    expect(stranger.statusCode).toBe(404);
    const otherVisitor = await seedVisitor(pool);
    const other = await injectAs(app, { visitorCookie: otherVisitor.cookie })({
      method: 'POST',
      url: '/api/flows',
      payload: { diagnosticId },
    });
    expect(other.statusCode).toBe(404);
    expect(Number((await pool.query('SELECT count(*) FROM flows')).rows[0].count)).toBe(flowsBefore);

    await buildTestWorker(harness, { queues: ['grading'] });
    expect((await browser({ method: 'POST', url: `/api/diagnostics/${diagnosticId}/complete` })).statusCode).toBe(200);
    const opened = await browser({ method: 'POST', url: '/api/flows', payload: { diagnosticId } });
    expect(opened.statusCode, opened.body).toBe(201);
    const flow = opened.json();
    expect(flow.state).toBe('survey');
    const send = async (event: Record<string, unknown>) => {
      const sent = await browser({ method: 'POST', url: `/api/flows/${flow.flowId}/events`, payload: { event } });
      expect(sent.statusCode, sent.body).toBe(200);
      return sent.json();
    };
    expect((await send({ type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call })).state).toBe('email_capture.editing');
    await send({ type: 'EMAIL_SUBMIT', email: `standalone-${Date.now()}@example.com`, name: 'Grace Hopper' });
    await until(
      async () => (await pool.query('SELECT state FROM flows WHERE id = $1', [flow.flowId])).rows[0].state !== 'processing.grading',
    );

    expect((await pool.query('SELECT state FROM flows WHERE id = $1', [flow.flowId])).rows[0].state).toBe('results');
    // the assessment was graded for that diagnostic: no second copy of its answers, and the lead owns it
    const linked = await pool.query(
      'SELECT a.tier, g.lead_id FROM assessment_results a JOIN diagnostics g ON g.id = a.diagnostic_id WHERE a.flow_id = $1',
      [flow.flowId],
    );
    expect(linked.rows).toHaveLength(1);
    expect(linked.rows[0].lead_id).not.toBeNull();
    expect((await pool.query('SELECT count(*) FROM diagnostics WHERE flow_id = $1', [flow.flowId])).rows[0].count).toBe('0');
    const text = pdfText((await browser(`/api/reports/${diagnosticId}.pdf`)).rawPayload);
    expect(text).not.toContain('Complete the qualification survey');
    expect(text).toContain('Prepared for Grace Hopper');

    // the modal's Download Report: the flow's report for its visitor, the flows' 404 for anyone else
    const ofFlow = await browser(`/api/flows/${flow.flowId}/report.pdf`);
    expect(ofFlow.statusCode).toBe(200);
    expect(ofFlow.headers['content-type']).toBe('application/pdf');
    expect(pdfText(ofFlow.rawPayload)).toContain('Prepared for Grace Hopper');
    expect((await injectAs(app, { remoteAddress: '203.0.113.11' })(`/api/flows/${flow.flowId}/report.pdf`)).statusCode).toBe(404);
    expect((await injectAs(app, { visitorCookie: otherVisitor.cookie })(`/api/flows/${flow.flowId}/report.pdf`)).statusCode).toBe(404);
  });

  it('answers 404 for a diagnostic without a result and 400 for a bad body', async () => {
    const started = await pool.query<{ id: string }>(
      "INSERT INTO diagnostics (bank_version, visitor_id) VALUES ('2.0.0', $1) RETURNING id",
      [owner.visitorId],
    );
    const missing = await browser({ method: 'POST', url: '/api/functions/report-pdf', payload: { diagnosticId: started.rows[0]!.id } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(`No report for diagnostic ${started.rows[0]!.id}`);
    const bad = await browser({ method: 'POST', url: '/api/functions/report-pdf', payload: { diagnosticId: 42 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('diagnosticId');
  });
});
