import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnosticScreens } from '#machines/content/index.js';
import type { Screen } from '#machines/content/diagnostic-bank.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import type { Config } from '#core/config/index.js';
import { flowClient, SURVEYS, toSurveyStep } from '#test/journey.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { NO_LEAD_MESSAGE } from '../adapters/assessment.js';

let app: FastifyInstance;
let pool: pg.Pool;
let config: Config;
let base: string;
let harness: TestApp;

beforeAll(async () => {
  // strangers below come from other addresses, through a proxy the server trusts
  harness = await buildTestApp({ ownDatabase: true, listen: true, env: { TRUST_PROXY_HOPS: '1' } });
  ({ app, pool, config, url: base } = harness);
});

afterAll(() => harness?.close());

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@Example.com`;
/** A new browser: a visitor of its own. */
const visitor = () => flowClient(base);
type Visitor = ReturnType<typeof visitor>;

/** Capture, the server-timed diagnostic and the survey's doorstep, as a new address unless one is given. */
const toSurvey = (browser: Visitor, email = unique('survey'), name?: string) => toSurveyStep(browser, pool, email, name);

async function counts() {
  const row = await pool.query(
    `SELECT (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM email_outbox)::int AS emails,
            (SELECT count(*) FROM flow_events)::int AS events, (SELECT count(*) FROM assessment_results)::int AS results,
            (SELECT count(*) FROM diagnostics)::int AS diagnostics`,
  );
  return row.rows[0];
}

describe('createOrUpdateLead and getSession', () => {
  it("captures on the visitor's own flow; a known address reuses the lead but answers only what this visitor typed", async () => {
    const email = unique('dedupe');
    const first = visitor();
    const saved = await first.call('POST', '/api/leads', { email, name: 'Dana Whitfield' });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json).toMatchObject({ email, name: 'Dana Whitfield', source: 'website', tags: [] });
    expect(saved.headers.get('cache-control')).toBe('no-store');
    expect((await first.get(saved.json.flowId)).state).toBe('intro');

    const stranger = flowClient(base, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    const again = await stranger.call('POST', '/api/leads', { email: email.toUpperCase(), name: 'Mallory Stone' });
    expect(again.status).toBe(200);
    // the same lead row (the product's dedupe), but nothing of it comes back: not Dana's name, not her flow
    expect(again.json).toMatchObject({ leadId: saved.json.leadId, name: 'Mallory Stone', email: email.toUpperCase(), tags: [] });
    expect(again.json.flowId).not.toBe(saved.json.flowId);
    expect((await stranger.call('GET', `/api/flows/${saved.json.flowId}`)).status).toBe(404);
    // getSession answers each visitor from their own flow
    expect((await stranger.call('GET', `/api/leads/${saved.json.leadId}/session`)).json).toMatchObject({ name: 'Mallory Stone' });
    expect((await first.call('GET', `/api/leads/${saved.json.leadId}/session`)).json).toMatchObject({ name: 'Dana Whitfield', email });
    const stored = await pool.query('SELECT name FROM leads WHERE lead_id = $1', [saved.json.leadId]);
    expect(stored.rows).toEqual([{ name: 'Dana Whitfield' }]);

    const tested = await first.call('POST', '/api/leads', { email, testing: true });
    expect(tested.json.leadId).not.toBe(saved.json.leadId);
    expect(tested.json.tags).toEqual(['test', 'testing-phase']);
    const defaults = await visitor().call('POST', '/api/leads', { email: unique('defaults') });
    expect(defaults.json).toMatchObject({ name: 'Community Member', source: 'website' });
  });

  it('getSession of a lead id this browser has no flow for is 404, with or without a visitor cookie', async () => {
    const owner = visitor();
    const { leadId } = (await owner.call('POST', '/api/leads', { email: unique('session'), name: 'Owner' })).json;
    const fresh = visitor();
    const anonymous = await fresh.call('GET', `/api/leads/${leadId}/session`);
    expect(anonymous.status).toBe(404);
    expect(anonymous.json.message).toBe('No lead with that id.');
    await fresh.start({ machine: 'mirror' });
    expect((await fresh.call('GET', `/api/leads/${leadId}/session`)).status).toBe(404);
    expect((await owner.call('GET', `/api/leads/${leadId}/session`)).status).toBe(200);
  });

  it('makes one lead when two visitors race with one address', async () => {
    const email = unique('race');
    const answers = await Promise.all([
      visitor().call('POST', '/api/leads', { email, name: 'A' }),
      visitor().call('POST', '/api/leads', { email: email.toLowerCase(), name: 'B' }),
    ]);
    expect(new Set(answers.map((a) => a.json.leadId)).size).toBe(1);
    const count = await pool.query('SELECT count(*)::int AS n FROM leads WHERE lower(email) = lower($1)', [email]);
    expect(count.rows[0].n).toBe(1);
  });

  it('names a bad email in a 400 and stores nothing', async () => {
    const before = await counts();
    const bad = await visitor().call('POST', '/api/leads', { email: 'not an address', name: 'X' });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ email: 'Please enter a valid email address' });
    const empty = await visitor().call('POST', '/api/leads', { email: '' });
    expect(empty.status).toBe(400);
    expect(empty.json.fields).toHaveProperty('email');
    const after = await counts();
    // the rejected capture is not an event; only the new flows' rows exist, no lead and no job
    expect(after.jobs).toBe(before.jobs);
  });
});

describe('token links', () => {
  it('spends a single-use token once under two concurrent checks, binding it to the visitor that got it', async () => {
    const token = randomBytes(16).toString('hex');
    const email = unique('token');
    await pool.query("INSERT INTO lead_tokens (token, email, name, expires_at) VALUES ($1, $2, 'Tess Okafor', now() + interval '1 hour')", [
      token,
      email,
    ]);
    const [a, b] = [visitor(), visitor()];
    const checks = await Promise.all([
      a.call('POST', '/api/leads/check-token', { token }),
      b.call('POST', '/api/leads/check-token', { token }),
    ]);
    expect(checks.map((c) => c.json.status).sort()).toEqual(['invalid', 'valid']);
    const winner = checks[0].json.status === 'valid' ? a : b;
    const valid = checks.find((c) => c.json.status === 'valid')!.json;
    const flow = await winner.get(valid.flowId);
    expect(flow.state).toBe('diagnostic');
    expect(flow.snapshot.context.session).toMatchObject({ email, name: 'Tess Okafor', source: 'token', leadToken: token });
    const loser = winner === a ? b : a;
    expect((await loser.call('GET', `/api/flows/${valid.flowId}`)).status).toBe(404);

    const expired = randomBytes(16).toString('hex');
    await pool.query("INSERT INTO lead_tokens (token, expires_at) VALUES ($1, now() - interval '1 second')", [expired]);
    expect((await visitor().call('POST', '/api/leads/check-token', { token: expired })).json).toEqual({
      status: 'invalid',
      token: expired,
      expired: true,
      flowId: null,
    });
  });

  it("initializes from a token: makes its lead, records the website visit, and the session is that visitor's", async () => {
    const token = randomBytes(16).toString('hex');
    const email = unique('visit');
    await pool.query(
      "INSERT INTO lead_tokens (token, email, name, source, reusable, expires_at) VALUES ($1, $2, 'Sam Ortiz', 'community', true, now() + interval '1 day')",
      [token, email],
    );
    const browser = visitor();
    const init = await browser.call('POST', '/api/leads/init-from-token', { token });
    expect(init.status).toBe(200);
    const { session, flowId } = init.json;
    expect(session).toMatchObject({ email, name: 'Sam Ortiz', source: 'community', leadToken: token });
    expect(flowId).toMatch(/^[0-9a-f-]{36}$/);
    const visit = await pool.query('SELECT type, metadata FROM interactions WHERE lead_id = $1', [session.leadId]);
    expect(visit.rows).toEqual([{ type: 'website_visit', metadata: { token, source: 'community' } }]);
    expect((await browser.call('GET', `/api/leads/${session.leadId}/session`)).json).toMatchObject({
      leadId: session.leadId,
      source: 'community',
    });
    expect((await visitor().call('GET', `/api/leads/${session.leadId}/session`)).status).toBe(404);
  });

  it('purges test leads for a signed-in admin, or on this machine outside production; never for a visitor behind a local proxy', async () => {
    const testLead = () => visitor().call('POST', '/api/leads', { email: unique('purge'), testing: true });
    const testLeads = async () => (await pool.query("SELECT count(*)::int AS n FROM leads WHERE 'test' = ANY (tags)")).rows[0].n as number;
    const purge = (target: FastifyInstance, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
      target.inject({ method: 'DELETE', url: '/api/leads/test-leads', ...options });
    // the defaults: no proxy trusted, as with npm start behind a reverse proxy on the same host
    const direct = await buildTestApp({ config: { ...config, TRUST_PROXY_HOPS: 0 }, sharing: harness });
    const production = await buildTestApp({ config: { ...config, NODE_ENV: 'production' }, sharing: harness });
    try {
      await testLead();
      expect((await purge(app, { remoteAddress: '203.0.113.9' })).statusCode).toBe(403);
      // a visitor relayed by a proxy on this host arrives from loopback, with the proxy's header
      expect((await purge(direct.app, { headers: { 'x-forwarded-for': '198.51.100.7' } })).statusCode).toBe(403);
      expect((await purge(direct.app, { headers: { forwarded: 'for=198.51.100.7' } })).statusCode).toBe(403);
      expect((await purge(production.app)).statusCode).toBe(403);
      expect(await testLeads()).toBeGreaterThan(0);

      const local = await purge(direct.app);
      expect(local.statusCode).toBe(200);
      expect(local.json().deleted).toBeGreaterThan(0);
      expect(await testLeads()).toBe(0);

      // in production only an admin may, with the session's CSRF token
      await testLead();
      const admin = await signedInAdmin(pool);
      const { cookie } = admin.headers;
      expect((await purge(production.app, { headers: { cookie } })).statusCode).toBe(403);
      const byAdmin = await purge(production.app, { remoteAddress: '203.0.113.9', headers: admin.headers });
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
      expect(byAdmin.json().deleted).toBeGreaterThan(0);
      expect(await testLeads()).toBe(0);
    } finally {
      await direct.close();
      await production.close();
    }
  });
});

describe('lead-assessment and submitQualificationData', () => {
  it("answers 'Unknown action: {name}' for any other action, and 404 for an unknown function", async () => {
    const unknown = await visitor().call('POST', '/api/functions/workflow-proxy', { action: 'delete-everything', data: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe('Unknown action: delete-everything');
    expect((await visitor().call('POST', '/api/functions/no-such-thing', {})).status).toBe(404);
  });

  it('refuses lead-assessment without a lead id with the product message, an unknown lead with 404, and names bad data fields', async () => {
    const noLead = await visitor().call('POST', '/api/functions/workflow-proxy', {
      action: 'lead-assessment',
      data: { survey: SURVEYS.homework },
    });
    expect(noLead.status).toBe(400);
    expect(noLead.json.message).toBe(NO_LEAD_MESSAGE);
    const unknownLead = await visitor().call('POST', '/api/functions/workflow-proxy', {
      action: 'lead-assessment',
      data: { survey: SURVEYS.homework, leadId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknownLead.status).toBe(404);
    const bad = await visitor().call('POST', '/api/functions/workflow-proxy', { action: 'lead-assessment', data: { survey: 'no' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields)).toEqual(['data.survey']);
  });

  it("grades the visitor's own flow once, by its grading job; a stranger with the lead id changes nothing", async () => {
    await buildTestWorker(harness, { queues: ['grading', 'timers'] });
    const owner = visitor();
    const { leadId, flowId } = await toSurvey(owner);

    const stranger = flowClient(base, { headers: { 'x-forwarded-for': '198.51.100.4' } });
    const before = await counts();
    const forged = { leadId, assessment: {}, survey: SURVEYS.book_call, mirrorChat: [] };
    expect((await stranger.call('POST', '/api/functions/workflow-proxy?wait=1', { action: 'lead-assessment', data: forged })).status).toBe(
      404,
    );
    expect((await stranger.call('POST', `/api/leads/${leadId}/qualification`, forged)).status).toBe(404);
    expect(await counts()).toEqual(before);

    const incomplete = await owner.call('POST', `/api/leads/${leadId}/qualification`, { survey: { q1_investment: 'ready_now' } });
    expect(incomplete.status).toBe(400);
    expect(Object.keys(incomplete.json.fields)).toEqual(['survey.q2_time', 'survey.q3_urgency', 'survey.q4_mindset', 'survey.q5_success']);

    const graded = await owner.call('POST', `/api/leads/${leadId}/qualification`, {
      survey: SURVEYS.book_call,
      assessment: {},
      mirrorChat: [],
    });
    expect(graded.status, JSON.stringify(graded.json)).toBe(200);
    expect(graded.json).toMatchObject({
      success: true,
      flowId,
      tier: 'book_call',
      qualification: 'book_call',
      diagnostic: { archetype: expect.any(String) },
    });
    // asking again (by the proxy this time) answers the same result and grades nothing more
    const again = await owner.call('POST', '/api/functions/workflow-proxy?wait=1', {
      action: 'lead-assessment',
      data: { leadId, survey: SURVEYS.nurture },
    });
    expect(again.json).toMatchObject({ tier: 'book_call', archetype: graded.json.archetype });
    const jobs = await pool.query("SELECT count(*)::int AS n FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [flowId]);
    expect(jobs.rows[0].n).toBe(1);
  });
  it('accepts the older eight-answer survey by the proxy: graded with its own points and tier rule, and says so', async () => {
    await buildTestWorker(harness, { queues: ['grading', 'timers'] });
    const owner = visitor();
    const { leadId, flowId } = await toSurvey(owner);
    const older = {
      current_role: 'director', // 17 of 20
      team_size: '16-50', // 13 of 15
      urgency_pain: 'critical', // 25 of 25
      commitment_level: 'all_in', // 30 of 30
      investment_readiness: 'considering', // 5 of 10
      budget: 'mid',
      authority: 'M',
      prior_coaching: 'none',
    };
    const graded = await owner.call('POST', '/api/functions/workflow-proxy?wait=1', {
      action: 'lead-assessment',
      data: { leadId, survey: older },
    });
    expect(graded.status, JSON.stringify(graded.json)).toBe(200);
    // 17 + 13 + 25 + 30 + 5 = 90; budget mid with authority M: homework
    expect(graded.json).toMatchObject({ success: true, flowId, tier: 'homework', qualification: 'homework' });
    const stored = await pool.query('SELECT survey_score, tier, result FROM assessment_results WHERE lead_id = $1', [leadId]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]).toMatchObject({ tier: 'homework' });
    expect(Number(stored.rows[0].survey_score)).toBe(90);
    expect(stored.rows[0].result.qualificationReasoning).toContain(
      'Tier homework (older survey): budget mid, authority M: a mid budget with authority L, M, D or P.',
    );
    // the lead's page says which survey it was and shows its answers in words
    const admin = await signedInAdmin(pool);
    const page = await app.inject({ method: 'GET', url: `/api/admin/leads/${leadId}`, headers: admin.headers });
    expect(page.statusCode).toBe(200);
    const [survey] = page.json().surveys;
    expect(survey).toMatchObject({ shape: 'older', survey_score: 90 });
    expect(survey.answers[0]).toEqual({ id: 'current_role', question: 'Current role', answer: 'Director' });
  });
});

describe('the workflow proxy send-homework action', () => {
  it("emails the free resources to the lead's stored address and name, never to an address sent along; a stranger gets 404", async () => {
    await buildTestWorker(harness, { queues: ['grading', 'homework', 'timers'] });
    const email = unique('homework');
    // the address's owner came first, under her own name, and comes back in another browser by her
    // personal link (a token link proves the address: decision 0044)
    const first = visitor();
    const owned = await first.call('POST', '/api/leads', { email, name: 'Avery Quinn' });
    const token = randomBytes(16).toString('hex');
    await pool.query("INSERT INTO lead_tokens (token, lead_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
      token,
      owned.json.leadId,
    ]);
    const other = visitor();
    expect((await other.call('POST', '/api/leads/check-token', { token })).json.status).toBe('valid');
    // she types her address (in another case) and a name that is not hers, and reaches the homework step
    const { leadId, flowId } = await toSurvey(other, email.toLowerCase(), 'Click https://evil.example');
    expect(leadId).toBe(owned.json.leadId);
    const graded = await other.call('POST', `/api/leads/${leadId}/qualification`, { survey: SURVEYS.homework });
    expect(graded.json.tier).toBe('homework');
    await until(async () => (await other.get(flowId)).state === 'results');
    await other.send(flowId, { type: 'CONTINUE' });

    const stranger = flowClient(base, { headers: { 'x-forwarded-for': '192.0.2.44' } });
    const before = await counts();
    const relay = {
      leadId,
      email: 'victim@example.net',
      name: 'Anyone',
      sendHomework: false,
      source: 'free_resources',
      diagnosticData: { archetype: 'Forged' },
    };
    expect((await stranger.call('POST', '/api/functions/workflow-proxy?wait=1', { action: 'send-homework', data: relay })).status).toBe(
      404,
    );
    expect(await counts()).toEqual(before);

    const sent = await other.call('POST', '/api/functions/workflow-proxy?wait=1', { action: 'send-homework', data: relay });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json).toMatchObject({ success: true, status: 'sent', flowId });
    const outbox = await pool.query('SELECT kind, status, to_address, text_body FROM email_outbox WHERE lead_id = $1', [leadId]);
    expect(outbox.rows).toHaveLength(1);
    expect(outbox.rows[0]).toMatchObject({ kind: 'free_resources', status: 'recorded', to_address: email });
    expect(outbox.rows[0].text_body).toMatch(/^Hi Avery,/);
    expect(outbox.rows[0].text_body).not.toContain('evil.example');
    expect(outbox.rows[0].text_body).not.toContain('Forged');

    const paidFirst = await other.call('POST', '/api/functions/workflow-proxy', {
      action: 'send-homework',
      data: { ...relay, source: 'paid_homework', sendHomework: true },
    });
    expect(paidFirst.status).toBe(409);
  });
});

describe('the standalone diagnostic helpers', () => {
  /** diagnostic-answer's body for a bank item: likert values that vary, a vignette's first option with confidence 4, the ranking as given. */
  function answerFor(screen: Screen, index: number) {
    if (screen.type === 'likert') return { answer: { id: screen.id, type: 'likert', value: [4, 2, 5, 3][index % 4], ms: 4000 } };
    if (screen.type === 'ranking') return { answer: { id: screen.id, type: 'ranking', value: screen.choiceIds, ms: 9000 } };
    return { answer: { id: screen.id, type: 'vignette', value: screen.choiceIds[0], confidence: 4, ms: 9000 } };
  }

  it("start, answers checked against the bank and the item on show, the flow's own grading, complete and read back, each by the diagnostic's own visitor only", async () => {
    const owner = visitor();
    const started = await owner.call('POST', '/api/diagnostics', {});
    expect(started.status).toBe(201);
    const { diagnosticId, flowId, total } = started.json;
    expect(total).toBe(diagnosticScreens.length);
    // a standalone diagnostic flow of the visitor's own, linked to the diagnostics row
    expect((await owner.get(flowId)).snapshot.context).toMatchObject({ standalone: true, index: 0 });
    expect((await pool.query('SELECT flow_id FROM diagnostics WHERE id = $1', [diagnosticId])).rows).toEqual([{ flow_id: flowId }]);

    const wrongItem = await owner.call('POST', `/api/diagnostics/${diagnosticId}/answers`, {
      answer: { id: 'nope', type: 'likert', value: 3, ms: 4000 },
    });
    expect(wrongItem.status).toBe(400);
    expect(wrongItem.json.message).toContain('answer.id');
    const notOnShow = await owner.call('POST', `/api/diagnostics/${diagnosticId}/answers`, answerFor(diagnosticScreens[1]!, 1));
    expect(notOnShow.status).toBe(409);

    const stranger = visitor();
    const first = answerFor(diagnosticScreens[0]!, 0);
    expect((await stranger.call('POST', `/api/diagnostics/${diagnosticId}/answers`, first)).status).toBe(404);
    expect((await stranger.call('POST', `/api/diagnostics/${diagnosticId}/complete`, {})).status).toBe(404);
    expect((await stranger.call('GET', `/api/diagnostics/${diagnosticId}/results`)).status).toBe(404);
    expect((await stranger.call('GET', `/api/flows/${flowId}`)).status).toBe(404);
    expect((await owner.get(flowId)).version).toBe(0);

    const answered = [];
    for (const [index, screen] of diagnosticScreens.entries()) {
      const response = await owner.call('POST', `/api/diagnostics/${diagnosticId}/answers`, answerFor(screen, index));
      expect(response.status, JSON.stringify(response.json)).toBe(200);
      answered.push(response.json);
      // no 'Timed Questions Ahead' screen in these calls: the first timed item is on show from the answer before it
      if (screen.type !== 'vignette' && diagnosticScreens[index + 1]?.type === 'vignette')
        expect((await owner.get(flowId)).state).toBe('vignette.choosing');
      if (index === 0) {
        const early = await owner.call('POST', `/api/diagnostics/${diagnosticId}/complete`, {});
        expect(early.status).toBe(409);
        expect(early.json.message).toContain('1 of 22 answered');
      }
    }
    // the machine's own record: timed by the server (answered back to back, so the claims are not believed)
    expect(answered[0]).toMatchObject({ itemId: diagnosticScreens[0]!.id, timedOut: false });
    expect(answered[0].responseTime).toBeLessThan(4000);

    // nothing is graded inside a request: the last answer left the flow grading, with a job for the worker
    const grading = await owner.get(flowId);
    expect(grading.state).toBe('grading');
    expect((await pool.query("SELECT name FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [flowId])).rows).toEqual([
      { name: 'diagnostic' },
    ]);
    const completing = owner.call('POST', `/api/diagnostics/${diagnosticId}/complete`, {});

    // the grading job stores the answers and the result and tells the flow; complete was waiting for it
    await buildTestWorker(harness, { queues: ['grading'] });
    const done = await completing;
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    // stored by the worker, not by complete: the result row and the worker's event that left
    // grading share their transaction (now() is the transaction's start)
    const author = await pool.query(
      `SELECT e.origin, e.type FROM diagnostic_results r JOIN flow_events e ON e.flow_id = $2 AND e.created_at = r.completed_at
       WHERE r.diagnostic_id = $1`,
      [diagnosticId, flowId],
    );
    expect(author.rows).toEqual([{ origin: 'worker', type: 'GRADED' }]);
    const result = done.json.diagnostic;
    expect(result.id).toBe(diagnosticId);
    expect(Object.keys(result.scores).sort()).toEqual(['DCR', 'FAD', 'LER', 'OAD', 'TBR', 'VIS']);
    expect((await owner.get(flowId)).snapshot.context.result).toMatchObject({ archetype: result.archetype });
    const stored = await pool.query<{ status: string; answers: number; confident: number }>(
      `SELECT d.status, count(a.*)::int AS answers, count(a.*) FILTER (WHERE a.confidence = 4)::int AS confident
       FROM diagnostics d, jsonb_to_recordset(d.answers) AS a(confidence smallint) WHERE d.id = $1 GROUP BY d.status`,
      [diagnosticId],
    );
    expect(stored.rows).toEqual([
      { status: 'completed', answers: 22, confident: diagnosticScreens.filter((s) => s.type === 'vignette').length },
    ]);

    expect((await owner.call('GET', `/api/diagnostics/${diagnosticId}/results`)).json).toEqual({ diagnostic: result });
    expect((await owner.call('POST', `/api/diagnostics/${diagnosticId}/complete`, {})).json).toEqual({ diagnosticId, diagnostic: result });
    expect((await owner.call('POST', `/api/diagnostics/${diagnosticId}/answers`, first)).status).toBe(409);
    expect((await stranger.call('GET', `/api/diagnostics/${diagnosticId}/results`)).status).toBe(404);
    expect((await owner.call('GET', '/api/diagnostics/00000000-0000-4000-8000-000000000000/results')).status).toBe(404);
  });

  it('a vignette asking for confidence needs one, and a ranking must place every item (400 naming the field)', async () => {
    const owner = visitor();
    const { diagnosticId } = (await owner.call('POST', '/api/diagnostics', {})).json;
    const vignette = diagnosticScreens.find((s): s is Extract<Screen, { type: 'vignette' }> => s.type === 'vignette' && s.hasFollowup)!;
    const ranking = diagnosticScreens.find((s): s is Extract<Screen, { type: 'ranking' }> => s.type === 'ranking')!;
    const noConfidence = await owner.call('POST', `/api/diagnostics/${diagnosticId}/answers`, {
      answer: { id: vignette.id, type: 'vignette', value: vignette.choiceIds[0], ms: 9000 },
    });
    expect(noConfidence.status).toBe(400);
    expect(noConfidence.json.message).toContain('answer.confidence');
    const partial = await owner.call('POST', `/api/diagnostics/${diagnosticId}/answers`, {
      answer: { id: ranking.id, type: 'ranking', value: ranking.choiceIds.slice(1), ms: 9000 },
    });
    expect(partial.status).toBe(400);
    expect(partial.json.message).toContain('answer.value');
  });

  it("attaches a new diagnostic only to a lead of the visitor's own flows", async () => {
    const owner = visitor();
    const { leadId } = (await owner.call('POST', '/api/leads', { email: unique('diag'), name: 'Owner' })).json;
    const stranger = visitor();
    const before = await counts();
    expect((await stranger.call('POST', '/api/diagnostics', { leadId })).status).toBe(404);
    expect((await counts()).diagnostics).toBe(before.diagnostics);
    const own = await owner.call('POST', '/api/diagnostics', { leadId });
    expect(own.status).toBe(201);
    const stored = await pool.query('SELECT lead_id FROM diagnostics WHERE id = $1', [own.json.diagnosticId]);
    expect(stored.rows).toEqual([{ lead_id: leadId }]);
  });
});
