import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnosticScreens } from '../../machines/content/index.js';
import { isolatedConfig } from '../../test/helpers.js';
import type { Config } from '../config/index.js';
import { steadyAnswers, SURVEYS } from '../../test/journey.js';
import { startWorkers } from '../../test/worker-harness.js';
import { buildApp } from '../app.js';
import { createPool } from '../db/pool.js';
import { NO_LEAD_MESSAGE } from '../leads/grading-requests.js';
import { createRedis } from '../redis.js';

let app: FastifyInstance;
let pool: pg.Pool;
let redis: ReturnType<typeof createRedis>;
let config: Config;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ config, drop } = await isolatedConfig());
  pool = createPool(config.DATABASE_URL!, 6);
  redis = createRedis(config.REDIS_URL!, 'producer');
  app = await buildApp({ config, pool, redis, logger: false });
});

afterAll(async () => {
  await app.close();
  await pool.end();
  redis.disconnect();
  await drop();
});

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@Example.com`;
const post = (url: string, payload: unknown, extra: Record<string, unknown> = {}) => app.inject({ method: 'POST', url, payload: payload as object, ...extra });

describe('leads', () => {
  it('dedupes on email whatever its case, outside testing mode; testing mode tags and duplicates', async () => {
    const email = unique('dedupe');
    const first = await post('/api/leads', { email, name: 'Dana Whitfield' });
    expect(first.statusCode).toBe(201);
    const again = await post('/api/leads', { email: email.toUpperCase() });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ leadId: first.json().leadId, created: false, name: 'Dana Whitfield' });
    const tested = await post('/api/leads', { email, testing: true });
    expect(tested.statusCode).toBe(201);
    expect(tested.json().leadId).not.toBe(first.json().leadId);
    expect(tested.json().tags).toEqual(['test', 'testing-phase']);
    const defaults = await post('/api/leads', { email: unique('defaults') });
    expect(defaults.json()).toMatchObject({ name: 'Community Member', source: 'website' });
  });

  it('makes one lead when two requests with one address race', async () => {
    const email = unique('race');
    const answers = await Promise.all([post('/api/leads', { email }), post('/api/leads', { email: email.toLowerCase() })]);
    expect(new Set(answers.map((a) => a.json().leadId)).size).toBe(1);
    const count = await pool.query('SELECT count(*)::int AS n FROM leads WHERE lower(email) = lower($1)', [email]);
    expect(count.rows[0].n).toBe(1);
  });

  it('spends a single-use token once under two concurrent checks, and says when a token expired', async () => {
    const token = randomBytes(16).toString('hex');
    await pool.query("INSERT INTO lead_tokens (token, email, expires_at) VALUES ($1, 'token@example.com', now() + interval '1 hour')", [token]);
    const checks = await Promise.all([post('/api/leads/check-token', { token }), post('/api/leads/check-token', { token })]);
    expect(checks.map((c) => c.json().status).sort()).toEqual(['invalid', 'valid']);
    const expired = randomBytes(16).toString('hex');
    await pool.query("INSERT INTO lead_tokens (token, expires_at) VALUES ($1, now() - interval '1 second')", [expired]);
    expect((await post('/api/leads/check-token', { token: expired })).json()).toEqual({ status: 'invalid', token: expired, expired: true });
    expect((await post('/api/leads/check-token', { token: 'x'.repeat(20) })).json()).toMatchObject({ status: 'invalid', expired: false });
  });

  it('initializes from a token: makes its lead and records the website visit with token and source', async () => {
    const token = randomBytes(16).toString('hex');
    const email = unique('visit');
    await pool.query("INSERT INTO lead_tokens (token, email, name, source, reusable, expires_at) VALUES ($1, $2, 'Sam Ortiz', 'community', true, now() + interval '1 day')", [token, email]);
    const init = await post('/api/leads/init-from-token', { token });
    expect(init.statusCode).toBe(200);
    const { session } = init.json();
    expect(session).toMatchObject({ email, name: 'Sam Ortiz', source: 'community', leadToken: token });
    const visit = await pool.query('SELECT type, metadata FROM interactions WHERE lead_id = $1', [session.leadId]);
    expect(visit.rows).toEqual([{ type: 'website_visit', metadata: { token, source: 'community' } }]);
    expect((await app.inject(`/api/leads/${session.leadId}/session`)).json()).toMatchObject({ leadId: session.leadId, source: 'community' });
  });

  it('lets only local testing mode purge test leads here (admins have their own route)', async () => {
    await post('/api/leads', { email: unique('purge'), testing: true });
    const remote = await app.inject({ method: 'DELETE', url: '/api/leads/test-leads', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    const local = await app.inject({ method: 'DELETE', url: '/api/leads/test-leads' });
    expect(local.statusCode).toBe(200);
    expect(local.json().deleted).toBeGreaterThan(0);
    const left = await pool.query("SELECT count(*)::int AS n FROM leads WHERE 'test' = ANY (tags)");
    expect(left.rows[0].n).toBe(0);
  });
});

describe('the workflow proxy and named functions', () => {
  it("answers 'Unknown action: {name}' for any other action, and 404 for an unknown function", async () => {
    const unknown = await post('/api/functions/workflow-proxy', { action: 'delete-everything', data: {} });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown action: delete-everything');
    const missing = await post('/api/functions/no-such-thing', {});
    expect(missing.statusCode).toBe(404);
  });

  it('refuses lead-assessment without a known lead with the spec message, and names bad data fields', async () => {
    const body = { assessment: steadyAnswers(), survey: SURVEYS.homework };
    const noLead = await post('/api/functions/workflow-proxy', { action: 'lead-assessment', data: body });
    expect(noLead.statusCode).toBe(400);
    expect(noLead.json().message).toBe(NO_LEAD_MESSAGE);
    const unknownLead = await post('/api/functions/workflow-proxy', { action: 'lead-assessment', data: { ...body, leadId: '00000000-0000-4000-8000-000000000000' } });
    expect(unknownLead.json().message).toBe(NO_LEAD_MESSAGE);
    const bad = await post('/api/functions/workflow-proxy', { action: 'lead-assessment', data: { survey: 'no' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(expect.arrayContaining(['data.assessment', 'data.survey']));
  });

  it('queues lead-assessment (202 with the job id), or with ?wait=1 waits for the graded result', async () => {
    await startWorkers(pool, config, ['grading']);
    const lead = (await post('/api/leads', { email: unique('proxy') })).json();
    const data = { leadId: lead.leadId, email: lead.email, name: 'Proxy', assessment: steadyAnswers(), survey: SURVEYS.book_call, source: 'website' };
    const queued = await post('/api/functions/workflow-proxy', { action: 'lead-assessment', data });
    expect(queued.statusCode).toBe(202);
    expect(queued.json().jobId).toMatch(/^[0-9a-f-]{36}$/);
    const waited = await post('/api/functions/workflow-proxy?wait=1', { action: 'lead-assessment', data });
    expect(waited.statusCode).toBe(200);
    expect(waited.json()).toMatchObject({ success: true, tier: 'book_call', qualification: 'book_call', diagnostic: { archetype: expect.any(String) } });
  });
});

describe('the workflow proxy send-homework action', () => {
  it('emails the homework for the lead\'s latest result (recorded in the outbox without SMTP)', async () => {
    await startWorkers(pool, config, ['grading', 'homework']);
    const lead = (await post('/api/leads', { email: unique('homework'), name: 'Avery Quinn' })).json();
    const graded = await post('/api/functions/workflow-proxy?wait=1', {
      action: 'lead-assessment',
      data: { leadId: lead.leadId, assessment: steadyAnswers(), survey: SURVEYS.homework },
    });
    expect(graded.json().tier).toBe('homework');
    const missingEmail = await post('/api/functions/workflow-proxy', { action: 'send-homework', data: { leadId: lead.leadId, sendHomework: false, source: 'free_resources' } });
    expect(missingEmail.statusCode).toBe(400);
    expect(missingEmail.json().fields).toHaveProperty('data.email');
    const sent = await post('/api/functions/workflow-proxy?wait=1', {
      action: 'send-homework',
      data: { leadId: lead.leadId, email: lead.email, name: 'Avery Quinn', sendHomework: false, source: 'free_resources' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ success: true, status: 'completed' });
    const email = await pool.query('SELECT kind, status, to_address FROM email_outbox WHERE lead_id = $1', [lead.leadId]);
    expect(email.rows).toEqual([expect.objectContaining({ kind: 'free_resources', status: 'recorded' })]);
  });
});

describe('the standalone diagnostic helpers', () => {
  it('starts, records answers checked against the bank, completes with a graded result, and reads it back', async () => {
    const started = await post('/api/diagnostics', {});
    expect(started.statusCode).toBe(201);
    const { diagnosticId, total } = started.json();
    expect(total).toBe(diagnosticScreens.length);

    const wrongItem = await post(`/api/diagnostics/${diagnosticId}/answers`, { answer: { id: 'nope', type: 'likert', value: 3, ms: 4000 } });
    expect(wrongItem.statusCode).toBe(400);
    expect(wrongItem.json().message).toContain('answer.id');
    const wrongValue = await post(`/api/diagnostics/${diagnosticId}/answers`, { answer: { id: 'b1', type: 'likert', value: 9, ms: 4000 } });
    expect(wrongValue.statusCode).toBe(400);

    for (const [index, screen] of diagnosticScreens.slice(0, 8).entries()) {
      const answered = await post(`/api/diagnostics/${diagnosticId}/answers`, { answer: { id: screen.id, type: 'likert', value: [4, 2, 5, 3][index % 4], ms: 4000 } });
      expect(answered.statusCode).toBe(200);
    }
    const done = await post(`/api/diagnostics/${diagnosticId}/complete`, {});
    expect(done.statusCode).toBe(200);
    const result = done.json().diagnostic;
    expect(Object.keys(result.scores).sort()).toEqual(['DCR', 'FAD', 'LER', 'OAD', 'TBR', 'VIS']);
    expect((await app.inject(`/api/diagnostics/${diagnosticId}/results`)).json()).toEqual({ diagnostic: result });
    const late = await post(`/api/diagnostics/${diagnosticId}/answers`, { answer: { id: 'b1', type: 'likert', value: 3, ms: 4000 } });
    expect(late.statusCode).toBe(409);
    expect((await app.inject('/api/diagnostics/00000000-0000-4000-8000-000000000000/results')).statusCode).toBe(404);
  });
});
