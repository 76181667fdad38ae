import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { seedGradedLead } from '#test/admin-leads-fixtures.js';
import { seedOutcome } from '#test/outcomes.js';
import type { Tier } from '#machines/protocol/common.js';
import { csvCell, escapeLike } from '../leads-queries.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';

/* A database of its own: the table's totals count the whole leads table. */

let app: FastifyInstance;
let pool: pg.Pool;
let cookie: string;
let csrf: string;
let harness: TestApp;

async function asAdmin(options: InjectOptions) {
  // these fixtures write leads, results and payments directly, past the owners that keep each lead's summary
  await refreshAllLeadFacts(pool);
  return app.inject({ ...options, headers: { ...options.headers, cookie: `hf_session=${cookie}`, 'x-csrf-token': csrf } });
}

/** A lead; with a tier, graded (its qualification score `score`, its leadership score `score` less 10). */
async function insertLead(fields: {
  email: string;
  name?: string;
  source?: string;
  tier?: Tier;
  score?: number;
  tags?: string[];
  createdAt?: string;
}) {
  const inserted = await pool.query<{ lead_id: string }>(
    `INSERT INTO leads (email, name, source, tags, created_at) VALUES ($1, $2, $3, $4, $5::timestamptz) RETURNING lead_id`,
    [
      fields.email,
      fields.name ?? 'Ada Lovelace',
      fields.source ?? 'website',
      fields.tags ?? [],
      fields.createdAt ?? '2026-03-01T12:00:00Z',
    ],
  );
  const leadId = inserted.rows[0]!.lead_id;
  if (fields.tier) {
    const score = fields.score ?? 50;
    await seedOutcome(pool, leadId, { tier: fields.tier, archetype: 'Visionary', qualificationScore: score, leadershipScore: score - 10 });
  }
  return leadId;
}

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  ({ cookie, csrf } = await signedInAdmin(pool));

  await insertLead({
    email: 'alpha@example.com',
    name: 'Alpha Adams',
    source: 'website',
    tier: 'book_call',
    score: 91,
    tags: ['vip'],
    createdAt: '2026-01-05T10:00:00Z',
  });
  await insertLead({
    email: 'bravo@example.com',
    name: 'Bravo 100% Real',
    source: 'community',
    tier: 'homework',
    score: 55,
    createdAt: '2026-01-10T10:00:00Z',
  });
  await insertLead({
    email: 'charlie_x@example.com',
    name: 'Charlie',
    source: 'community',
    tier: 'nurture',
    score: 20,
    tags: ['test', 'vip'],
    createdAt: '2026-02-01T10:00:00Z',
  });
  await insertLead({ email: 'delta@example.com', name: '=HYPERLINK("http://evil")', source: 'token', createdAt: '2026-02-15T23:30:00Z' });
  await insertLead({
    email: 'echo@example.com',
    name: 'Echo, "Quoted"',
    source: 'website',
    tier: 'book_call',
    score: 70,
    createdAt: '2026-02-20T10:00:00Z',
  });
});

afterAll(() => harness?.close());

describe('GET /api/admin/leads', () => {
  const list = async (query: string) => {
    const response = await asAdmin({ method: 'GET', url: `/api/admin/leads${query}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json<{
      items: Array<{ email: string; qualification_score: number | null; leadership_score: number | null; tags: string[]; test: boolean }>;
      total: number;
      page: number;
      pageSize: number;
    }>();
  };

  it('pages newest first by default, test leads left out unless included', async () => {
    const first = await list('?pageSize=2');
    expect(first).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(first.items.map((l) => l.email)).toEqual(['echo@example.com', 'delta@example.com']);
    const second = await list('?pageSize=2&page=2');
    expect(second.items.map((l) => l.email)).toEqual(['bravo@example.com', 'alpha@example.com']);
    expect((await list('?pageSize=2&page=9')).items).toEqual([]);
    expect(first.items[0]).toMatchObject({
      id: expect.any(String),
      email: 'echo@example.com',
      name: 'Echo, "Quoted"',
      source: 'website',
      test: false,
      tier: 'book_call',
      archetype: 'Visionary',
      qualification_score: 70,
      leadership_score: 60,
      attempts: 1,
      rushed_attempts: 0,
      deposit: 'none',
      booking: 'none',
      revenue_cents: 0,
      tags: [],
      created_at: '2026-02-20T10:00:00.000Z',
    });
    const withTest = await list('?includeTest=true');
    expect(withTest.total).toBe(5);
    expect(withTest.items.find((l) => l.email === 'charlie_x@example.com')).toMatchObject({ test: true, tags: ['test', 'vip'] });
  });

  it('searches name or email case-insensitively, with LIKE wildcards taken literally', async () => {
    expect((await list('?q=ALPHA')).items.map((l) => l.email)).toEqual(['alpha@example.com']);
    expect((await list('?q=adams')).items.map((l) => l.email)).toEqual(['alpha@example.com']);
    expect((await list('?q=100%25')).items.map((l) => l.email)).toEqual(['bravo@example.com']);
    expect((await list('?q=o_x')).total).toBe(0);
    expect((await list('?q=e_x&includeTest=true')).items.map((l) => l.email)).toEqual(['charlie_x@example.com']);
    expect((await list('?q=%25')).total).toBe(1);
    expect(escapeLike('a%b_c\\')).toBe('a\\%b\\_c\\\\');
  });

  it('filters by source, tier, tag and created date (whole days in the time zone, both ends included)', async () => {
    expect((await list('?source=community')).total).toBe(1);
    expect((await list('?source=community&includeTest=true')).total).toBe(2);
    expect((await list('?tier=homework')).items.map((l) => l.email)).toEqual(['bravo@example.com']);
    expect((await list('?tag=vip')).items.map((l) => l.email)).toEqual(['alpha@example.com']);
    expect((await list('?tag=vip&includeTest=true')).items.map((l) => l.email)).toEqual(['charlie_x@example.com', 'alpha@example.com']);
    expect((await list('?from=2026-01-10&to=2026-02-15&includeTest=true')).items.map((l) => l.email)).toEqual([
      'delta@example.com',
      'charlie_x@example.com',
      'bravo@example.com',
    ]);
    // delta came at 23:30 UTC on the 15th: the 16th in Paris
    expect((await list('?from=2026-01-10&to=2026-02-15&tz=Europe/Paris')).items.map((l) => l.email)).toEqual(['bravo@example.com']);
    expect((await list('?source=community&tag=vip&tier=nurture&includeTest=true')).total).toBe(1);
  });

  it('sorts by the whitelisted columns, nulls last', async () => {
    expect((await list('?sort=email&dir=asc')).items.map((l) => l.email)[0]).toBe('alpha@example.com');
    const scores = async (query: string) => (await list(query)).items.map((l) => l.qualification_score);
    expect(await scores('?sort=qualification_score&dir=desc&includeTest=true')).toEqual([91, 70, 55, 20, null]);
    expect(await scores('?sort=qualification_score&dir=asc&includeTest=true')).toEqual([20, 55, 70, 91, null]);
    expect((await list('?sort=leadership_score&dir=desc')).items.map((l) => l.leadership_score)).toEqual([81, 60, 45, null]);
    expect((await list('?sort=created_at&dir=asc')).items[0]!.email).toBe('alpha@example.com');
  });

  it('answers 400 for bad parameters', async () => {
    for (const query of [
      '?pageSize=101',
      '?pageSize=0',
      '?page=0',
      '?page=x',
      '?sort=name',
      '?sort=email;DROP',
      '?dir=up',
      '?tier=gold',
      '?from=yesterday',
      '?source=Not%20Valid',
      '?sort=total_score',
      '?includeTest=yes',
      '?tz=Mars/Olympus_Mons',
    ]) {
      const response = await asAdmin({ method: 'GET', url: `/api/admin/leads${query}` });
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('GET /api/admin/leads.csv', () => {
  it('exports the filtered set, quoted, with formula cells neutralised', async () => {
    const response = await asAdmin({ method: 'GET', url: '/api/admin/leads.csv?sort=email&dir=asc&includeTest=true' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,email,name,source,tags,test,tier,archetype,leadership_score,qualification_score,attempts,rushed_attempts,deposit,booking,revenue_cents,created_at',
    );
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(
      /^[0-9a-f-]{36},alpha@example.com,Alpha Adams,website,vip,false,book_call,Visionary,81,91,1,0,none,none,0,2026-01-05T10:00:00.000Z$/,
    );
    expect(lines[3]).toContain(',charlie_x@example.com,Charlie,community,test;vip,true,nurture,Visionary,10,20,');
    expect(lines[4]).toContain(`,delta@example.com,"'=HYPERLINK(""http://evil"")",token,,false,,,,,0,0,none,none,0,`);
    expect(lines[5]).toContain(',echo@example.com,"Echo, ""Quoted""",website,');

    const filtered = await asAdmin({ method: 'GET', url: '/api/admin/leads.csv?source=community&includeTest=true' });
    expect(filtered.body.trimEnd().split('\r\n')).toHaveLength(3);
    // the same filter gives the table's total
    const real = await asAdmin({ method: 'GET', url: '/api/admin/leads.csv' });
    const table = await asAdmin({ method: 'GET', url: '/api/admin/leads' });
    expect(real.body.trimEnd().split('\r\n')).toHaveLength(table.json().total + 1);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/leads.csv?tier=gold' })).statusCode).toBe(400);
  });

  it('guards every formula prefix', () => {
    for (const start of ['=', '+', '-', '@']) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
  });
});

describe("a lead's page and its deletion", () => {
  it('answers the whole bundle for a graded lead', async () => {
    const seeded = await seedGradedLead(pool, 'book_call');
    const response = await asAdmin({ method: 'GET', url: `/api/admin/leads/${seeded.leadId}` });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    expect(page.lead).toMatchObject({
      id: seeded.leadId,
      email: seeded.email,
      name: 'Test Lead',
      tier: 'book_call',
      qualification_score: 78.5,
      leadership_score: 78.5,
      // a test payment: on the lead's own page (everything about the lead), marked as such
      deposit: 'paid',
      deposit_test_mode: true,
    });
    expect(page.result).toMatchObject({
      tier: 'book_call',
      qualification_score: 78.5,
      scores: { LER: 81, VIS: 90 },
      qualificationReasoning: ['Ready to invest now.', 'Critical urgency.'],
    });
    // answers come as questions beside answers in words, in the order shown, retired ones kept
    expect(page.diagnostics).toHaveLength(1);
    const sections = page.diagnostics[0].sections as Array<{
      title: string;
      answers: Array<{ id: string; question: string; answer: unknown }>;
    }>;
    expect(sections.map((s) => s.title)).toEqual([
      'Baseline: how you lead today',
      'Priority ranking',
      'Scenarios',
      'Questions no longer in the diagnostic',
    ]);
    expect(sections.flatMap((s) => s.answers.map((a) => a.id))).toEqual(['b1', 'priority_ranking', 'vig_dc', 'b9_retired']);
    expect(sections[0]!.answers[0]).toMatchObject({
      question: 'Everyone on my team could name the three outcomes we are accountable for this quarter.',
      answer: '4 – Agree',
      responseMs: 4000,
    });
    expect(sections[1]!.answers[0]!.answer).toEqual([
      'Clarifying where we are heading and why',
      "Growing my team's capability so they need me less",
      "Hitting this quarter's numbers",
      'Keeping my boss and key stakeholders aligned',
      'Tightening how we plan, track and review our work',
    ]);
    expect(sections[2]!.answers[0]).toMatchObject({
      answer: expect.stringMatching(/^Put them in a room for 30 minutes/),
      confidence: '4 – Very confident',
    });
    expect(sections[3]!.answers[0]).toMatchObject({ question: 'b9_retired (question no longer in the diagnostic)', answer: '2' });
    expect(page.surveys).toHaveLength(1);
    expect(page.surveys[0].survey_score).toBe(90);
    expect(page.surveys[0].answers.map((a: { id: string }) => a.id)).toEqual([
      'q1_investment',
      'q2_time',
      'q3_urgency',
      'q4_mindset',
      'q5_success',
      'q6_context',
      'q7_team',
      'q0_budget',
    ]);
    expect(page.surveys[0].answers[0]).toEqual({
      id: 'q1_investment',
      question: 'Our leadership coaching program is an investment of $25,000-50,000. Which best describes where you are?',
      answer: 'I am ready to invest now.',
    });
    expect(page.surveys[0].answers[1]).toMatchObject({ id: 'q2_time', answer: null });
    expect(page.surveys[0].answers.at(-1)).toEqual({
      id: 'q0_budget',
      question: 'q0_budget (question no longer in the survey)',
      answer: 'plenty',
    });
    expect(page.mirrorSessions[0].messages.map((m: { role: string }) => m.role)).toEqual(['user', 'mirror']);
    expect(page.payments).toEqual([
      expect.objectContaining({ id: seeded.paymentId, purpose: 'deposit', status: 'succeeded', amount_cents: 25000 }),
    ]);
    expect(page.emails).toEqual([
      expect.objectContaining({ kind: 'free_resources', status: 'sent', subject: 'Your leadership resources' }),
    ]);
    expect(page.jobs).toEqual([
      expect.objectContaining({ id: seeded.jobId, status: 'failed', attempts: 5, last_error: 'SMTP 554: mailbox unavailable' }),
    ]);
    expect(page.notes).toEqual([expect.objectContaining({ body: 'Called, left a voicemail.' })]);
    expect(page.flows).toHaveLength(1);
    expect(page.flows[0]).toMatchObject({ id: seeded.flowId, machine: 'assessmentFlow' });
    expect(page.flows[0].events.map((e: { type: string }) => e.type)).toEqual([
      'CAPTURE_SUBMIT',
      'LEAD_SAVED',
      'START_DIAGNOSTIC',
      'DIAGNOSTIC_COMPLETED',
      'SURVEY_SUBMITTED',
      'GRADED',
    ]);
    expect(page.flows[0].events[0]).toMatchObject({ seq: 1, payload: { name: 'Test Lead', email: seeded.email }, origin: 'client' });
  });

  it('answers an empty page for a lead with nothing yet, and 404 / 400 for unknown or bad ids', async () => {
    const leadId = await insertLead({ email: `bare-${randomBytes(4).toString('hex')}@example.com` });
    const bare = (await asAdmin({ method: 'GET', url: `/api/admin/leads/${leadId}` })).json();
    expect(bare).toMatchObject({
      result: null,
      diagnostics: [],
      surveys: [],
      mirrorSessions: [],
      payments: [],
      emails: [],
      jobs: [],
      notes: [],
      flows: [],
    });
    await pool.query('DELETE FROM leads WHERE lead_id = $1', [leadId]);
    for (const method of ['GET', 'DELETE'] as const) {
      const missing = await asAdmin({ method, url: `/api/admin/leads/${randomUUID()}` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect((await asAdmin({ method, url: '/api/admin/leads/not-a-uuid' })).statusCode).toBe(400);
    }
  });

  it('deletes the lead and every row about it', async () => {
    const seeded = await seedGradedLead(pool, 'homework');
    const other = await seedGradedLead(pool, 'nurture');
    await pool.query("INSERT INTO lead_tokens (token, email, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
      randomBytes(16).toString('hex'),
      seeded.email.toUpperCase(),
    ]);
    const count = async (leadId: string, flowId: string, email: string) => {
      const { rows } = await pool.query(
        `SELECT (SELECT count(*) FROM leads WHERE lead_id = $1)::int AS leads,
                (SELECT count(*) FROM flows WHERE id = $2)::int AS flows,
                (SELECT count(*) FROM flow_events WHERE flow_id = $2)::int AS flow_events,
                (SELECT count(*) FROM assessment_results WHERE lead_id = $1)::int AS assessment_results,
                (SELECT count(*) FROM diagnostics WHERE lead_id = $1 OR flow_id = $2)::int AS diagnostics,
                (SELECT coalesce(sum(jsonb_array_length(answers)), 0) FROM diagnostics WHERE lead_id = $1)::int AS diagnostic_answers,
                (SELECT count(*) FROM survey_responses WHERE lead_id = $1)::int AS survey_responses,
                (SELECT count(*) FROM mirror_sessions WHERE lead_id = $1)::int AS mirror_sessions,
                (SELECT count(*) FROM mirror_messages m JOIN mirror_sessions s ON s.id = m.session_id WHERE s.lead_id = $1)::int AS mirror_messages,
                (SELECT count(*) FROM payment_tracking WHERE lead_id = $1)::int AS payment_tracking,
                (SELECT count(*) FROM email_outbox WHERE lead_id = $1 OR to_address = $3)::int AS email_outbox,
                (SELECT count(*) FROM jobs WHERE lead_id = $1 OR flow_id = $2)::int AS jobs,
                (SELECT count(*) FROM lead_notes WHERE lead_id = $1)::int AS lead_notes,
                (SELECT count(*) FROM interactions WHERE lead_id = $1)::int AS interactions,
                (SELECT count(*) FROM lead_tokens WHERE lead_id = $1 OR lower(email) = lower($3))::int AS lead_tokens`,
        [leadId, flowId, email],
      );
      return rows[0] as Record<string, number>;
    };
    const before = await count(seeded.leadId, seeded.flowId, seeded.email);
    for (const [table, n] of Object.entries(before)) expect(n, table).toBeGreaterThan(0);
    const otherBefore = await count(other.leadId, other.flowId, other.email);

    const withoutCsrf = await app.inject({
      method: 'DELETE',
      url: `/api/admin/leads/${seeded.leadId}`,
      headers: { cookie: `hf_session=${cookie}` },
    });
    expect(withoutCsrf.statusCode).toBe(403);

    const deleted = await asAdmin({ method: 'DELETE', url: `/api/admin/leads/${seeded.leadId}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ deleted: true });
    const after = await count(seeded.leadId, seeded.flowId, seeded.email);
    for (const [table, n] of Object.entries(after)) expect(n, table).toBe(0);
    expect(await count(other.leadId, other.flowId, other.email)).toEqual(otherBefore);
    expect((await asAdmin({ method: 'GET', url: `/api/admin/leads/${seeded.leadId}` })).statusCode).toBe(404);
    expect((await asAdmin({ method: 'DELETE', url: `/api/admin/leads/${seeded.leadId}` })).statusCode).toBe(404);
  });

  it('refuses a visitor without an admin session', async () => {
    for (const url of ['/api/admin/leads', '/api/admin/leads.csv', `/api/admin/leads/${randomUUID()}`]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/leads/${randomUUID()}` })).statusCode).toBe(401);
  });
});
