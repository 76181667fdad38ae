import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRADING_RULES } from '#machines/grading/rules.js';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import { seedOutcome } from '#test/outcomes.js';
import type { Tier } from '#machines/protocol/common.js';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { registeredRoutes } from '#test/routes.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';

/*
 * Runs against a database of its own: the overview counts whole tables and the test-lead purge
 * deletes every recent test lead, which would disturb test files running alongside.
 */

/** Admin routes owned and tested by another file; every other admin route must have a case below. */
const TESTED_ELSEWHERE = new Set([
  // server/admin/routes/bookings.int.test.ts
  'GET /api/admin/leads/:id/unmatched-bookings',
  'POST /api/admin/bookings/:id/assign',
  'POST /api/admin/payments/:id/refund',
  'GET /api/admin/leads',
  'GET /api/admin/leads.csv',
  'GET /api/admin/leads/:id',
  'DELETE /api/admin/leads/:id',
  'GET /api/admin/jobs/summary',
  'GET /api/admin/jobs',
  'POST /api/admin/jobs/:id/retry',
  'POST /api/admin/jobs/retry-failed',
  'DELETE /api/admin/jobs/:id',
  'GET /api/admin/live',
  'GET /api/admin/machines',
  'GET /api/admin/integrations',
  'PUT /api/admin/integrations/:key',
  'POST /api/admin/integrations/automation/rotate-secret',
  // workers/processors/email-marketing.int.test.ts
  'POST /api/admin/integrations/email_marketing/test',
  'GET /api/admin/monitor',
  'POST /api/admin/grading/apply',
  'POST /api/admin/grading/undo',
  // server/admin/routes/emails.int.test.ts and core/flows/reminder-settings.int.test.ts
  'GET /api/admin/emails',
  'POST /api/admin/emails/:id/test',
  'GET /api/admin/reminder-settings',
  'PUT /api/admin/reminder-settings',
  'GET /api/admin/contact/:id/emails',
  // server/routes/reports.int.test.ts
  'GET /api/admin/reports/:id.pdf',
  'GET /api/admin/emails/:id/attachments/:index',
]);

let app: FastifyInstance;
let pool: pg.Pool;
let admin: SignedInAdmin;
let harness: TestApp;

/** A request as the signed-in admin, CSRF header included. */
function asAdmin(options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, ...admin.headers } });
}

async function insertLead(
  fields: { email?: string; tags?: string[]; createdAt?: string; tier?: Tier; score?: number } = {},
): Promise<string> {
  const inserted = await pool.query(
    `INSERT INTO leads (email, name, source, tags, created_at)
     VALUES ($1, 'Ada Lovelace', 'community', $2, coalesce($3::timestamptz, now())) RETURNING lead_id`,
    [fields.email ?? `lead-${randomBytes(6).toString('hex')}@example.com`, fields.tags ?? [], fields.createdAt ?? null],
  );
  const leadId: string = inserted.rows[0].lead_id;
  if (fields.tier)
    await seedOutcome(pool, leadId, { tier: fields.tier, archetype: 'Visionary Firebrand', qualificationScore: fields.score });
  await refreshAllLeadFacts(pool); // written past the owners, which keep each lead's summary
  return leadId;
}

async function insertContact(message = 'Hello there, I would like to talk about team coaching.'): Promise<string> {
  const inserted = await pool.query(
    "INSERT INTO contact_submissions (name, email, company, message) VALUES ('Grace Hopper', 'grace@example.com', 'Navy', $1) RETURNING id",
    [message],
  );
  return inserted.rows[0].id;
}

/**
 * The admin routes the app really has, read from its route table: `METHOD /path` for each,
 * HEAD left out (Fastify adds it to every GET, and it takes the same hooks).
 */
function registeredAdminRoutes(): string[] {
  return registeredRoutes(app).filter((route) => {
    const path = route.split(' ')[1]!;
    return path.startsWith('/api/admin/') || path === '/api/functions/admin-fetch-data';
  });
}

let leadId: string;
let contactId: string;

/** A request each admin route serves for a signed-in admin, and the status it answers. */
const cases: Record<string, () => { options: InjectOptions; status: number }> = {
  'POST /api/functions/admin-fetch-data': () => ({ options: { method: 'POST', url: '/api/functions/admin-fetch-data' }, status: 200 }),
  'GET /api/admin/data': () => ({ options: { method: 'GET', url: '/api/admin/data' }, status: 200 }),
  'GET /api/admin/overview': () => ({ options: { method: 'GET', url: '/api/admin/overview' }, status: 200 }),
  'GET /api/admin/overview/funnel': () => ({
    options: { method: 'GET', url: '/api/admin/overview/funnel?period=7d&tz=Europe%2FParis' },
    status: 200,
  }),
  'GET /api/admin/overview/dropoff': () => ({
    options: { method: 'GET', url: '/api/admin/overview/dropoff?period=7d&tz=Europe%2FParis' },
    status: 200,
  }),
  'GET /api/admin/overview/attention': () => ({ options: { method: 'GET', url: '/api/admin/overview/attention' }, status: 200 }),
  'GET /api/admin/leads/:id/notes': () => ({ options: { method: 'GET', url: `/api/admin/leads/${leadId}/notes` }, status: 200 }),
  'POST /api/admin/leads/:id/notes': () => ({
    options: { method: 'POST', url: `/api/admin/leads/${leadId}/notes`, payload: { body: 'Left a voicemail.' } },
    status: 201,
  }),
  'DELETE /api/admin/leads/test-leads': () => ({ options: { method: 'DELETE', url: '/api/admin/leads/test-leads' }, status: 200 }),
  'POST /api/admin/contact/:id/handled': () => ({
    options: { method: 'POST', url: `/api/admin/contact/${contactId}/handled`, payload: { handled: true } },
    status: 200,
  }),
  'GET /api/admin/mirror-sessions': () => ({ options: { method: 'GET', url: '/api/admin/mirror-sessions?show=saved' }, status: 200 }),
  'GET /api/admin/site-settings': () => ({ options: { method: 'GET', url: '/api/admin/site-settings' }, status: 200 }),
  'GET /api/admin/grading': () => ({ options: { method: 'GET', url: '/api/admin/grading' }, status: 200 }),
  'POST /api/admin/grading/dry-run': () => ({
    options: { method: 'POST', url: '/api/admin/grading/dry-run', payload: { rules: DEFAULT_GRADING_RULES } },
    status: 200,
  }),
  'PUT /api/admin/site-settings': () => ({
    options: { method: 'PUT', url: '/api/admin/site-settings', payload: DEFAULT_SITE_SETTINGS },
    status: 200,
  }),
};

/** The route's own case, or (for a route tested elsewhere) the route with a random id in each parameter. */
function requestFor(route: string): InjectOptions {
  if (cases[route]) return cases[route]().options;
  const [method, path] = route.split(' ') as [InjectOptions['method'], string];
  return { method, url: path.replace(/:[A-Za-z]+/g, () => randomUUID()) };
}

beforeAll(async () => {
  // a database of its own: the purge and the counters cover whole tables
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  admin = await signedInAdmin(pool);
  leadId = await insertLead();
  contactId = await insertContact();
});

afterAll(() => harness?.close());

describe('admin access control, for every admin route the app has', () => {
  it('every admin route has a case here (or is named as tested elsewhere)', () => {
    const routes = registeredAdminRoutes();
    expect(routes).toEqual(expect.arrayContaining(Object.keys(cases)));
    expect(routes.filter((route) => !cases[route] && !TESTED_ELSEWHERE.has(route))).toEqual([]);
  });

  it('answers 401 without a cookie, with a forged one and with an expired session', async () => {
    // an admin whose only session has run out
    const expired = await signedInAdmin(pool);
    await pool.query(
      "UPDATE sessions SET created_at = now() - interval '8 days', expires_at = now() - interval '1 day' WHERE user_id = $1",
      [expired.id],
    );
    const cookies = { none: undefined, forged: randomBytes(32).toString('base64url'), expired: expired.cookie };
    for (const route of registeredAdminRoutes()) {
      for (const [kind, cookie] of Object.entries(cookies)) {
        const options = requestFor(route);
        const response = await app.inject({
          ...options,
          headers: { ...(cookie ? { cookie: `hf_session=${cookie}` } : {}), 'x-csrf-token': 'whatever' },
        });
        expect(response.statusCode, `${route} with ${kind} cookie: ${response.body}`).toBe(401);
        expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      }
    }
  });

  it('answers 403 to a state-changing request without the session’s CSRF token', async () => {
    const unsafe = registeredAdminRoutes().filter((route) => !route.startsWith('GET '));
    expect(unsafe.length).toBeGreaterThan(0);
    for (const route of unsafe) {
      for (const csrf of [undefined, 'f'.repeat(64)]) {
        const options = requestFor(route);
        const response = await app.inject({
          ...options,
          headers: { cookie: `hf_session=${admin.cookie}`, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
        });
        expect(response.statusCode, `${route} with csrf ${csrf}: ${response.body}`).toBe(403);
        expect(response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden', message: 'Missing or wrong x-csrf-token header.' });
      }
    }
  });

  it('serves each route to a signed-in admin with the CSRF header, uncached', async () => {
    for (const route of Object.keys(cases)) {
      const { options, status } = cases[route]!();
      const response = await asAdmin(options);
      expect(response.statusCode, `${route}: ${response.body}`).toBe(status);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('lists every admin route in the OpenAPI document under the admin tag, with a summary', async () => {
    const document = (await app.inject('/api/docs/json')).json();
    for (const route of Object.keys(cases)) {
      const [method, path] = route.split(' ') as [string, string];
      const operation = document.paths[path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(operation, route).toBeDefined();
      expect(operation.tags).toEqual(['admin']);
      expect(operation.summary).toEqual(expect.any(String));
    }
  });
});

describe('admin data', () => {
  it('admin-fetch-data and GET /api/admin/data answer the documented bundle, newest first', async () => {
    const older = await insertLead({
      createdAt: new Date(Date.now() - 60_000).toISOString(),
      tier: 'homework',
      score: 61.5,
      tags: ['vip'],
    });
    const newer = await insertLead({ tier: 'book_call', score: 82 });
    const diagnostic = await pool.query(
      "INSERT INTO diagnostics (lead_id, bank_version, status, completed_at) VALUES ($1, '2.0.0', 'completed', now()) RETURNING id",
      [newer],
    );
    await pool.query(
      `INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version)
       VALUES ($1, $2, '{"LER": 7.5}', 'Visionary Firebrand', 'You lead from the front.', '2.0.0', '1')`,
      [diagnostic.rows[0].id, newer],
    );
    const mirrorId = randomUUID();
    await pool.query('INSERT INTO mirror_sessions (id, lead_id, turns) VALUES ($1, $2, 3)', [mirrorId, newer]);
    await pool.query(`INSERT INTO survey_responses (lead_id, answers, survey_score) VALUES ($1, '{"q1_investment": "ready_now"}', 72.25)`, [
      newer,
    ]);

    const viaFunction = await asAdmin({ method: 'POST', url: '/api/functions/admin-fetch-data' });
    const viaGet = await asAdmin({ method: 'GET', url: '/api/admin/data' });
    const withEmptyBody = await asAdmin({ method: 'POST', url: '/api/functions/admin-fetch-data', payload: {} });
    expect(viaGet.json()).toEqual(viaFunction.json());
    expect(withEmptyBody.statusCode).toBe(200);
    const data = viaFunction.json();
    expect(Object.keys(data).sort()).toEqual(['contactSubmissions', 'diagnosticResults', 'leads', 'mirrorSessions', 'surveyResponses']);

    const leadIds = data.leads.map((lead: { id: string }) => lead.id);
    expect(leadIds.indexOf(newer)).toBeLessThan(leadIds.indexOf(older));
    expect(data.leads.find((lead: { id: string }) => lead.id === older)).toMatchObject({
      id: older,
      email: expect.stringMatching(/@example\.com$/),
      name: 'Ada Lovelace',
      source: 'community',
      test: false,
      tier: 'homework',
      archetype: 'Visionary Firebrand',
      qualification_score: 61.5,
      tags: ['vip'],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(data.diagnosticResults[0]).toMatchObject({
      lead_id: newer,
      archetype: 'Visionary Firebrand',
      scores: { LER: 7.5 },
      narrative: 'You lead from the front.',
    });
    expect(data.mirrorSessions[0]).toMatchObject({ id: mirrorId, lead_id: newer, turns: 3, completed: false, saved: false });
    expect(data.surveyResponses[0]).toMatchObject({ lead_id: newer, answers: { q1_investment: 'ready_now' }, survey_score: 72.25 });
    expect(data.contactSubmissions.find((c: { id: string }) => c.id === contactId)).toMatchObject({
      name: 'Grace Hopper',
      company: 'Navy',
    });
  });

  it('caps each list at 500 rows', async () => {
    await pool.query(
      "INSERT INTO leads (email, created_at) SELECT 'bulk-' || i || '@example.com', now() - interval '1 day' FROM generate_series(1, 501) AS i",
    );
    const data = (await asAdmin({ method: 'GET', url: '/api/admin/data' })).json();
    expect(data.leads).toHaveLength(500);
    await pool.query("DELETE FROM leads WHERE email LIKE 'bulk-%'");
  });

  it('overview: the five counters (the lead ones as the funnel counts them), the latest 5 leads and the latest 3 messages', async () => {
    for (let i = 0; i < 6; i += 1) await insertLead();
    // older than the test-lead purge's 7 days, which a later test counts
    await insertLead({ tags: ['test', 'testing-phase'], createdAt: new Date(Date.now() - 30 * 86_400_000).toISOString() });
    for (let i = 0; i < 4; i += 1) await insertContact(`Message number ${i}`);
    const scope = 'period=all&tz=UTC&includeTest=true';
    const overview = (await asAdmin({ method: 'GET', url: `/api/admin/overview?${scope}` })).json();
    const { funnel } = (await asAdmin({ method: 'GET', url: `/api/admin/overview/funnel?${scope}` })).json();
    const counted = await pool.query(
      `SELECT (SELECT count(*) FROM leads)::int AS "totalLeads", (SELECT count(*) FROM mirror_sessions)::int AS "mirrorSessions",
              (SELECT count(*) FROM contact_submissions)::int AS "contactMessages"`,
    );
    expect(overview.counts).toEqual({
      ...counted.rows[0],
      diagnosticsCompleted: funnel.diagnosticDone,
      surveyResponses: funnel.surveyDone,
    });
    expect(overview.counts.totalLeads).toBe(funnel.captured);
    expect(overview.counts.totalLeads).toBeGreaterThanOrEqual(7);
    // test leads only when included
    const real = (await asAdmin({ method: 'GET', url: '/api/admin/overview?period=all' })).json();
    expect(real).toMatchObject({ period: 'all', includeTest: false, counts: { totalLeads: overview.counts.totalLeads - 1 } });

    const latestLeads = await pool.query('SELECT lead_id FROM leads ORDER BY created_at DESC LIMIT 5');
    expect(overview.recentLeads.map((lead: { id: string }) => lead.id)).toEqual(latestLeads.rows.map((row) => row.lead_id));
    expect(Object.keys(overview.recentLeads[0]).sort()).toEqual(['created_at', 'email', 'id', 'source']);
    expect(overview.recentMessages.map((m: { message: string }) => m.message)).toEqual([
      'Message number 3',
      'Message number 2',
      'Message number 1',
    ]);
    expect(Object.keys(overview.recentMessages[0]).sort()).toEqual(['company', 'created_at', 'email', 'id', 'message', 'name']);
  });
});

describe('lead notes (add-lead-note)', () => {
  it('adds notes written by the signed-in admin and lists them newest first', async () => {
    const lead = await insertLead();
    const first = await asAdmin({ method: 'POST', url: `/api/admin/leads/${lead}/notes`, payload: { body: '  First call booked.  ' } });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(String),
      lead_id: lead,
      author_id: admin.id,
      author_email: admin.email,
      body: 'First call booked.',
      created_at: expect.any(String),
    });
    await asAdmin({ method: 'POST', url: `/api/admin/leads/${lead}/notes`, payload: { body: 'Deposit paid.' } });
    const list = await asAdmin({ method: 'GET', url: `/api/admin/leads/${lead}/notes` });
    expect(list.json().map((note: { body: string }) => note.body)).toEqual(['Deposit paid.', 'First call booked.']);
  });

  it('refuses an empty or over-long note (400) and an unknown lead (404)', async () => {
    const lead = await insertLead();
    for (const body of ['   ', 'x'.repeat(5001)]) {
      const response = await asAdmin({ method: 'POST', url: `/api/admin/leads/${lead}/notes`, payload: { body } });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty('body');
    }
    expect((await asAdmin({ method: 'POST', url: `/api/admin/leads/${lead}/notes`, payload: { body: 'x'.repeat(5000) } })).statusCode).toBe(
      201,
    );
    const missing = randomUUID();
    const post = await asAdmin({ method: 'POST', url: `/api/admin/leads/${missing}/notes`, payload: { body: 'Hello' } });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ statusCode: 404, error: 'Not Found', message: `No lead with id ${missing}` });
    expect((await asAdmin({ method: 'GET', url: `/api/admin/leads/${missing}/notes` })).statusCode).toBe(404);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/leads/not-a-uuid/notes' })).statusCode).toBe(400);
  });
});

describe('test-lead purge and contact handling', () => {
  it('deletes only test-tagged leads created in the last 7 days, and answers the count', async () => {
    const recentTest = await insertLead({ tags: ['test', 'testing-phase'] });
    const oldTest = await insertLead({ tags: ['test', 'testing-phase'], createdAt: new Date(Date.now() - 8 * 86_400_000).toISOString() });
    const real = await insertLead();
    const response = await asAdmin({ method: 'DELETE', url: '/api/admin/leads/test-leads' });
    expect(response.json()).toEqual({ deleted: 1 });
    const left = await pool.query('SELECT lead_id FROM leads WHERE lead_id = ANY ($1)', [[recentTest, oldTest, real]]);
    expect(left.rows.map((row) => row.lead_id).sort()).toEqual([oldTest, real].sort());
  });

  it('marks a contact message handled (stamped once) and back', async () => {
    const id = await insertContact();
    const set = (handled: boolean) => asAdmin({ method: 'POST', url: `/api/admin/contact/${id}/handled`, payload: { handled } });
    const handled = (await set(true)).json();
    expect(handled).toMatchObject({ id, handled: true, handled_at: expect.any(String) });
    expect((await set(true)).json().handled_at).toBe(handled.handled_at);
    expect((await set(false)).json()).toMatchObject({ id, handled: false, handled_at: null });
    const missing = await asAdmin({ method: 'POST', url: `/api/admin/contact/${randomUUID()}/handled`, payload: { handled: true } });
    expect(missing.statusCode).toBe(404);
    expect((await asAdmin({ method: 'POST', url: `/api/admin/contact/${id}/handled`, payload: { handled: 'yes' } })).statusCode).toBe(400);
  });
});
