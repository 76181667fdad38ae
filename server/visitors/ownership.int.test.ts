import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { diagnosticScreens } from '#machines/content/index.js';
import { seedResultsFlow } from '#test/flows.js';
import { SURVEYS } from '#test/journey.js';
import { registeredRoutes } from '#test/routes.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { injectAs, seedVisitor, type InjectVisitor } from '#test/visitor.js';
import { FlowEngine } from '#core/flows/engine.js';
import { frameText } from '../sockets/frames.js';
import { recordTestPayment } from '#core/payments/checkout.js';

/*
 * A stranger who knows a lead's email or id, a flow's id, a diagnostic's id, a Mirror session's id
 * or a payment intent reaches nothing: the app's route table is walked, and every public route
 * scoped to one of those is called by another browser from another address with the owner's ids.
 * It must answer 404 with nothing stored and nothing queued or sent; the owner's same call must
 * still work. A route the table gains is refused by this test until it is classified below.
 */

/** Public routes that reach nothing of anyone's (or only what a credential unlocks), and why. */
const UNSCOPED: Record<string, string> = {
  'POST /api/flows': "starts a flow of the caller's own",
  'POST /api/leads/check-token': 'the token is the credential',
  'POST /api/leads/init-from-token': 'the token is the credential',
  'DELETE /api/leads/test-leads': 'a signed-in admin, or a direct request on this machine outside production (403 otherwise)',
  'GET /api/config': 'public settings, no personal data',
  'POST /api/visits': 'an anonymous count',
  'POST /api/functions/send-contact-email': 'a new message from the caller',
  'POST /contact': 'a new message from the caller, the contact form posted without JavaScript',
  'POST /api/client-log/not-found': 'the path of a page not found, logged',
  'POST /api/functions/:name': 'any unknown function: 404',
  'POST /api/stripe/webhook': 'signed by Stripe',
  'POST /api/slack/events': 'signed by Slack',
  'POST /api/integrations/scheduling/webhook': 'signed by Calendly or Cal.com',
  'POST /api/flows/resume':
    "the signed, expiring token is the credential; it makes the flow the caller's (server/routes/follow-ups.int.test.ts)",
  'POST /api/leads/confirm':
    "the signed, one-time, expiring token mailed to the lead's address is the credential; it gives the attempt to the lead and its flow to the caller (server/routes/lead-proof.int.test.ts)",
  'POST /api/email/unsubscribe': 'the signed token is the credential; it only turns reminders off',
  'GET /api/reports/link':
    'the signed, expiring token of the results or homework email is the credential (workers/processors/results-email.int.test.ts)',
  'GET /api/email/unsubscribe': 'a redirect to the unsubscribe page, which changes nothing',
  'POST /api/auth/sign-in': 'admin sign-in',
  'POST /api/auth/sign-out': "the caller's own session",
  'GET /api/auth/session': "the caller's own session",
  'POST /api/auth/change-password': "the signed-in caller's own password (session and CSRF token)",
  'GET /healthz': 'process health',
  'GET /readyz': 'service health',
};

/** Admin routes and sockets are walked by server/admin/admin.int.test.ts. */
const isAdmin = (route: string) => /^\S+ (\/api\/admin\/|\/admin\/|\/api\/functions\/(admin-fetch-data|slack-monitor)$)/.test(route);
/** Documentation, the single-page app's files, its rendered pages and what crawlers read. */
const isStatic = (route: string) =>
  /^\S+ (\/api\/docs|\/$|\/\*$|\/assets\/|\/index\.html$|\/favicon\.svg$|\/og-image\.png$|\/pages\/|\/robots\.txt$|\/sitemap\.xml$)/.test(
    route,
  );

let app: FastifyInstance;
let pool: pg.Pool;
let base: string;
let owner: InjectVisitor;
let stranger: InjectVisitor;
let harness: TestApp;

/** What the owner has, by id. */
const ids = {} as {
  leadId: string;
  homeworkFlowId: string;
  eventsFlowId: string;
  paymentFlowId: string;
  captureFlowId: string;
  diagnosticId: string;
  gradedDiagnosticId: string;
  mirrorSessionId: string;
  paymentIntentId: string;
};

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true });
  ({ app, pool, url: base } = harness);

  const visitor = await seedVisitor(pool);
  owner = injectAs(app, { visitorCookie: visitor.cookie });
  stranger = injectAs(app, { remoteAddress: '203.0.113.50' });

  const homework = await seedResultsFlow(pool, 'homework', undefined, visitor);
  ids.leadId = homework.leadId;
  ids.homeworkFlowId = homework.flowId;
  await ownerEvent(homework.flowId, 'CONTINUE');
  ids.eventsFlowId = (await seedResultsFlow(pool, 'nurture', undefined, visitor)).flowId;
  const deposit = await seedResultsFlow(pool, 'book_call', undefined, visitor);
  ids.paymentFlowId = deposit.flowId;
  await ownerEvent(deposit.flowId, 'CONTINUE');
  await ownerEvent(deposit.flowId, 'PAY_DEPOSIT');
  // what the payments and timers workers (not run here) do with a test payment
  const engine = new FlowEngine(pool);
  const attempt = {
    flowId: deposit.flowId,
    jobId: crypto.randomUUID(),
    purpose: 'deposit',
    leadId: deposit.leadId,
    email: deposit.email,
  } as const;
  ids.paymentIntentId = (await engine.transaction((tx) => recordTestPayment(tx, attempt))).paymentIntentId;
  await engine.apply(deposit.flowId, { type: 'PAYMENT_CONFIRMED', paymentIntentId: ids.paymentIntentId }, 'server');
  // a capture screen: as a Mirror opening, since this returning visitor's new assessment opens at their completed results
  ids.captureFlowId = (await owner({ method: 'POST', url: '/api/flows', payload: { mode: 'mirror' } })).json().flowId;

  ids.diagnosticId = (await owner({ method: 'POST', url: '/api/diagnostics', payload: {} })).json().diagnosticId;
  ids.gradedDiagnosticId = await seedGradedDiagnostic(visitor.visitorId);
  // the homework flow's result, stored with that diagnostic as grading stores it: the flow's report
  await pool.query(
    `INSERT INTO assessment_results (lead_id, flow_id, diagnostic_id, tier, qualification, archetype, total_score, diagnostic_score,
       survey_score, mirror_score, composite_score, result, bank_version, grading_version)
     SELECT $3::uuid, $1, $2, 'homework', 'homework', archetype, 60, 60, 60, 60, 60, '{}', '2.0.0', 'grading-1.0.0'
     FROM diagnostic_results WHERE diagnostic_id = $2`,
    [ids.homeworkFlowId, ids.gradedDiagnosticId, ids.leadId],
  );
  ids.mirrorSessionId = crypto.randomUUID();
  const mirror = await owner({ method: 'POST', url: '/api/functions/mirror-llm-response', payload: mirrorBody(ids.mirrorSessionId) });
  expect(mirror.statusCode, mirror.body).toBe(200);
});

afterAll(() => harness?.close());

async function ownerEvent(flowId: string, type: string) {
  const response = await owner({ method: 'POST', url: `/api/flows/${flowId}/events`, payload: { event: { type } } });
  expect(response.statusCode, response.body).toBe(200);
}

function mirrorBody(sessionId: string) {
  return { conversationHistory: [{ role: 'user', content: 'Whether to split the team in two.' }], turn: 1, sessionId, save: true };
}

/** A standalone diagnostic of the owner's with a stored result (what a finished one leaves). */
async function seedGradedDiagnostic(visitorId: string): Promise<string> {
  const diagnostic = await pool.query<{ id: string }>(
    "INSERT INTO diagnostics (bank_version, status, completed_at, visitor_id) VALUES ('2.0.0', 'completed', now(), $1) RETURNING id",
    [visitorId],
  );
  const id = diagnostic.rows[0]!.id;
  await pool.query(
    `INSERT INTO diagnostic_results (diagnostic_id, scores, archetype, narrative, bank_version, grading_version)
     VALUES ($1, '{"LER": 61, "DCR": 55}', 'Reluctant Steward', 'You carry more than you let on.', '2.0.0', 'grading-1.0.0')`,
    [id],
  );
  return id;
}

/** Everything a request could have stored, queued or sent, in one comparable row. */
async function fingerprint() {
  const tables = [
    'visitors',
    'leads',
    'flows',
    'flow_events',
    'jobs',
    'email_outbox',
    'interactions',
    'diagnostics',
    'diagnostic_results',
    'survey_responses',
    'assessment_results',
    'mirror_sessions',
    'mirror_messages',
    'payment_tracking',
    'booking_references',
  ];
  const counts = await pool.query(
    `SELECT ${tables.map((t) => `(SELECT count(*) FROM ${t})::int AS ${t}`).join(', ')}, (SELECT sum(version) FROM flows)::int AS versions`,
  );
  return counts.rows[0];
}

/** Each scoped route: the request (with the owner's ids) and the status the owner gets for it. */
const scoped: Record<string, () => { request: InjectOptions; ownerStatus: number }> = {
  'GET /api/flows/:id': () => ({ request: { method: 'GET', url: `/api/flows/${ids.homeworkFlowId}` }, ownerStatus: 200 }),
  // the deposit's booking reference (decision 0046): issued to the flow's visitor only
  'GET /api/flows/:id/booking-reference': () => ({
    request: { method: 'GET', url: `/api/flows/${ids.paymentFlowId}/booking-reference` },
    ownerStatus: 200,
  }),
  // the modal's Download Report: the flow's own report
  'GET /api/flows/:id/report.pdf': () => ({
    request: { method: 'GET', url: `/api/flows/${ids.homeworkFlowId}/report.pdf` },
    ownerStatus: 200,
  }),
  'POST /api/flows/:id/events': () => ({
    request: { method: 'POST', url: `/api/flows/${ids.eventsFlowId}/events`, payload: { event: { type: 'CONTINUE' } } },
    ownerStatus: 200,
  }),
  'POST /api/leads': () => ({
    request: { method: 'POST', url: '/api/leads', payload: { email: 'someone@example.com', name: 'Someone', flowId: ids.captureFlowId } },
    ownerStatus: 200,
  }),
  'GET /api/leads/:id/session': () => ({ request: { method: 'GET', url: `/api/leads/${ids.leadId}/session` }, ownerStatus: 200 }),
  'POST /api/leads/:id/qualification': () => ({
    request: {
      method: 'POST',
      url: `/api/leads/${ids.leadId}/qualification`,
      payload: { survey: SURVEYS.book_call, assessment: {}, mirrorChat: [] },
    },
    ownerStatus: 200,
  }),
  'POST /api/functions/workflow-proxy': () => ({
    request: {
      method: 'POST',
      url: '/api/functions/workflow-proxy',
      payload: {
        action: 'send-homework',
        data: { leadId: ids.leadId, email: 'victim@example.net', sendHomework: false, source: 'free_resources' },
      },
    },
    // the homework job is queued; no worker runs here
    ownerStatus: 202,
  }),
  'POST /api/functions/create-payment': () => ({
    request: { method: 'POST', url: '/api/functions/create-payment', payload: { source: 'refundable_deposit', flowId: ids.paymentFlowId } },
    ownerStatus: 200,
  }),
  'GET /api/payments/verify': () => ({
    request: { method: 'GET', url: `/api/payments/verify?paymentIntentId=${ids.paymentIntentId}` },
    ownerStatus: 200,
  }),
  'POST /api/diagnostics': () => ({
    request: { method: 'POST', url: '/api/diagnostics', payload: { leadId: ids.leadId } },
    ownerStatus: 201,
  }),
  'POST /api/diagnostics/:id/answers': () => {
    const first = diagnosticScreens[0]!;
    return {
      request: {
        method: 'POST',
        url: `/api/diagnostics/${ids.diagnosticId}/answers`,
        payload: { answer: { id: first.id, type: first.type, value: 4, ms: 4000 } },
      },
      ownerStatus: 200,
    };
  },
  'POST /api/diagnostics/:id/complete': () => ({
    request: { method: 'POST', url: `/api/diagnostics/${ids.gradedDiagnosticId}/complete`, payload: {} },
    ownerStatus: 200,
  }),
  'GET /api/diagnostics/:id/results': () => ({
    request: { method: 'GET', url: `/api/diagnostics/${ids.gradedDiagnosticId}/results` },
    ownerStatus: 200,
  }),
  'GET /api/reports/:id.pdf': () => ({ request: { method: 'GET', url: `/api/reports/${ids.gradedDiagnosticId}.pdf` }, ownerStatus: 200 }),
  'POST /api/functions/report-pdf': () => ({
    request: { method: 'POST', url: '/api/functions/report-pdf', payload: { diagnosticId: ids.gradedDiagnosticId } },
    ownerStatus: 200,
  }),
  'POST /api/functions/mirror-llm-response': () => ({
    request: { method: 'POST', url: '/api/functions/mirror-llm-response', payload: { ...mirrorBody(ids.mirrorSessionId), turn: 2 } },
    ownerStatus: 200,
  }),
};

/** The socket is walked on its own below (a subscribe frame, not a request). */
const SOCKET_ROUTE = 'GET /api/ws';

describe('every lead-, flow-, diagnostic-, Mirror- and payment-scoped public route refuses a stranger', () => {
  it('classifies every public route of the app', () => {
    const publicRoutes = registeredRoutes(app).filter((route) => !isAdmin(route) && !isStatic(route));
    const unclassified = publicRoutes.filter((route) => !(route in scoped) && !(route in UNSCOPED) && route !== SOCKET_ROUTE);
    expect(unclassified).toEqual([]);
    for (const route of [...Object.keys(scoped), SOCKET_ROUTE]) expect(publicRoutes).toContain(route);
  });

  it.each(Object.keys(scoped))('%s: 404 for a stranger, nothing stored or sent; the owner is served', async (route) => {
    const { request, ownerStatus } = scoped[route]!();
    const before = await fingerprint();
    const refused = await stranger(request);
    expect(refused.statusCode, refused.body).toBe(404);
    expect(refused.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    // a stranger learns nothing of the owner from the answer either
    expect(refused.body).not.toContain(ids.leadId);
    expect(await fingerprint()).toEqual(before);

    const served = await owner(request);
    expect(served.statusCode, served.body).toBe(ownerStatus);
  });

  it("GET /api/ws: a stranger's subscription to the owner's flow is refused as unknown, the owner's is accepted", async () => {
    const frames = async (cookie: string | null, flowId: string) => {
      const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, cookie ? { headers: { cookie } } : {});
      const received: Array<{ type: string; error?: string }> = [];
      await new Promise<void>((resolve, reject) => {
        socket.on('message', (raw) => {
          const frame = JSON.parse(frameText(raw));
          received.push(frame);
          if (frame.type === 'subscribed' || frame.type === 'error') resolve();
        });
        socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', flowId })));
        socket.on('error', reject);
      });
      socket.close();
      return received.at(-1)!;
    };
    expect(await frames(null, ids.homeworkFlowId)).toEqual({
      type: 'error',
      flowId: ids.homeworkFlowId,
      error: `No flow with id ${ids.homeworkFlowId}`,
    });
    const other = await seedVisitor(pool);
    expect(await frames(`hf_visitor=${other.cookie}`, ids.homeworkFlowId)).toMatchObject({ type: 'error' });
    expect(await frames(owner.cookieHeader(), ids.homeworkFlowId)).toMatchObject({ type: 'subscribed', flowId: ids.homeworkFlowId });
  });

  it('a forged or tampered visitor cookie is no visitor at all', async () => {
    const tampered = owner.cookies.hf_visitor!.replace(/^.{8}/, '00000000');
    const forged = await app.inject({ method: 'GET', url: `/api/flows/${ids.homeworkFlowId}`, cookies: { hf_visitor: tampered } });
    expect(forged.statusCode).toBe(404);
    const unsigned = await app.inject({
      method: 'GET',
      url: `/api/flows/${ids.homeworkFlowId}`,
      cookies: { hf_visitor: owner.cookies.hf_visitor!.split('.')[0]! },
    });
    expect(unsigned.statusCode).toBe(404);
  });

  it('issues the visitor cookie httpOnly, SameSite=Lax, for the API only', async () => {
    const started = await app.inject({ method: 'POST', url: '/api/flows', payload: {}, remoteAddress: '198.51.100.77' });
    const cookie = started.cookies.find((c) => c.name === 'hf_visitor')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api' });
    expect(cookie.maxAge).toBeGreaterThan(30 * 24 * 60 * 60);
    expect(started.headers['cache-control']).toBe('no-store');
  });
});
