import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRADING_RULES, type GradeInput, type GradingRules } from '#machines/grading/index.js';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { REGRADE_INPUTS, seedRegradableLead } from '#test/regradable-leads.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';

/*
 * The scope of a re-grade: the dry run and the apply of one scope consider the same leads, leads
 * outside it keep their results, the application records it, and its undo re-grades the same leads.
 * A database of its own: the rules in force and the history are global.
 */

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;
let admin: SignedInAdmin;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  admin = await signedInAdmin(pool);
});

afterAll(() => harness?.close());

/** book_call from 65, homework from 45: ready (67) and validating (49) move up a tier. */
const PROPOSAL: GradingRules = { ...DEFAULT_GRADING_RULES, thresholds: { bookCall: 65, homework: 45 } };
const SPRING = { source: 'spring' };
/** SPRING as stored, its default filled in. */
const SPRING_SCOPE = { ...SPRING, includeTestLeads: false };

const post = (url: string, body?: object) =>
  app.inject({ method: 'POST', url, headers: admin.headers, ...(body === undefined ? {} : { payload: body }) });
const seed = (input: GradeInput | null, options: { source?: string; test?: boolean } = {}) =>
  seedRegradableLead(pool, input, { source: 'spring', ...options });

/** Each lead's latest result (id, tier, version), as a re-grade reads it. */
async function latestResults(): Promise<Map<string, { id: string; tier: string; grading_version: string }>> {
  const { rows } = await pool.query<{ lead_id: string; id: string; tier: string; grading_version: string }>(
    `SELECT DISTINCT ON (lead_id) lead_id, id, tier, grading_version FROM assessment_results ORDER BY lead_id, created_at DESC, id DESC`,
  );
  return new Map(rows.map(({ lead_id, ...row }) => [lead_id, row]));
}

/** The leads an application gave a new result. */
async function regradedBy(applicationId: number): Promise<string[]> {
  const { rows } = await pool.query<{ lead_id: string }>('SELECT lead_id FROM assessment_results WHERE application_id = $1', [
    applicationId,
  ]);
  return rows.map((row) => row.lead_id).sort();
}

const counts = (report: Record<string, unknown>) => ({
  considered: report.considered,
  skipped: report.skipped,
  unchanged: report.unchanged,
  moved: report.moved,
  moves: report.moves,
  leads: report.leads,
});

describe('the scope of a re-grade', () => {
  let ready: Awaited<ReturnType<typeof seed>>;
  let urgent: Awaited<ReturnType<typeof seed>>;
  let validating: Awaited<ReturnType<typeof seed>>;
  let unstored: Awaited<ReturnType<typeof seed>>;
  let testLead: Awaited<ReturnType<typeof seed>>;
  let autumn: Awaited<ReturnType<typeof seed>>;
  let applicationId: number;

  beforeAll(async () => {
    ready = await seed(REGRADE_INPUTS.ready);
    urgent = await seed(REGRADE_INPUTS.urgent);
    validating = await seed(REGRADE_INPUTS.validating);
    unstored = await seed(null);
    // out of the scope: a test lead of the same source, and a lead of another source; both would move
    testLead = await seed(REGRADE_INPUTS.ready, { test: true });
    autumn = await seed(REGRADE_INPUTS.validating, { source: 'autumn' });
  });

  it('applies to exactly the leads the dry run of the same scope considered, and leaves the others on their results', async () => {
    const dry = await post('/api/admin/grading/dry-run', { rules: PROPOSAL, scope: SPRING });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ considered: 4, skipped: 1, unchanged: 1, moved: 2 });
    const before = await latestResults();

    const applied = await post('/api/admin/grading/apply', { rules: PROPOSAL, scope: SPRING, note: 'Spring cohort only' });
    expect(applied.statusCode, applied.body).toBe(200);
    const result = applied.json();
    expect(counts(result)).toEqual(counts(dry.json()));
    expect(result.application).toMatchObject({
      note: 'Spring cohort only',
      scope: SPRING_SCOPE,
      regraded: 3,
      moved: 2,
      undoOf: null,
    });
    applicationId = result.application.id;
    expect(await regradedBy(applicationId)).toEqual([ready.leadId, urgent.leadId, validating.leadId].sort());

    const after = await latestResults();
    expect(after.get(ready.leadId)).toMatchObject({ tier: 'book_call', grading_version: 'grading-2' });
    expect(after.get(validating.leadId)).toMatchObject({ tier: 'homework', grading_version: 'grading-2' });
    // out of scope, or without stored answers: the same latest result, and the lead's tier with it
    for (const lead of [testLead, autumn, unstored]) expect(after.get(lead.leadId)).toEqual(before.get(lead.leadId));
    const tiers = await pool.query<{ lead_id: string; tier: string }>(
      'SELECT lead_id, tier FROM lead_facts(true) WHERE lead_id = ANY ($1)',
      [[testLead.leadId, autumn.leadId]],
    );
    expect(Object.fromEntries(tiers.rows.map((row) => [row.lead_id, row.tier]))).toEqual({
      [testLead.leadId]: 'homework',
      [autumn.leadId]: 'nurture',
    });
    // the rules are in force all the same: the same scope tried again now moves nobody
    const again = (await post('/api/admin/grading/dry-run', { rules: PROPOSAL, scope: SPRING })).json();
    expect(again).toMatchObject({ considered: 4, moved: 0 });
  });

  it('undoes over the leads the undone application re-graded, under its scope, with "Undo of application N" said once', async () => {
    const before = await latestResults();
    const undone = await post('/api/admin/grading/undo');
    expect(undone.statusCode, undone.body).toBe(200);
    const { application } = undone.json();
    expect(application).toMatchObject({
      version: 'grading-1.0.0',
      undoOf: applicationId,
      note: null,
      scope: SPRING_SCOPE,
      regraded: 3,
      moved: 2,
    });
    expect(await regradedBy(application.id)).toEqual(await regradedBy(applicationId));
    const after = await latestResults();
    expect(after.get(ready.leadId)).toMatchObject({ tier: 'homework', grading_version: 'grading-1.0.0' });
    expect(after.get(validating.leadId)).toMatchObject({ tier: 'nurture', grading_version: 'grading-1.0.0' });
    for (const lead of [testLead, autumn, unstored]) expect(after.get(lead.leadId)).toEqual(before.get(lead.leadId));

    // the history as the API gives it: the coach's note only, the undo named by undoOf, each with its scope
    const view = (await app.inject({ method: 'GET', url: '/api/admin/grading', headers: admin.headers })).json();
    expect(view.history).toEqual([
      expect.objectContaining({ id: application.id, version: 'grading-1.0.0', note: null, undoOf: applicationId, scope: SPRING_SCOPE }),
      expect.objectContaining({ id: applicationId, version: 'grading-2', note: 'Spring cohort only', undoOf: null, scope: SPRING_SCOPE }),
    ]);
    expect(JSON.stringify(view.history)).not.toContain('Undo of');
  });

  it('undoes a scope by current tier over the leads it moved out of that tier', async () => {
    const scope = { ...SPRING, tier: 'homework' };
    const dry = (await post('/api/admin/grading/dry-run', { rules: PROPOSAL, scope })).json();
    // ready (homework, moves to book_call) and the unstored one (homework, skipped)
    expect(dry).toMatchObject({ considered: 2, skipped: 1, moved: 1 });
    const applied = (await post('/api/admin/grading/apply', { rules: PROPOSAL, scope })).json();
    expect(counts(applied)).toEqual(counts(dry));
    expect(applied.application).toMatchObject({ scope: { ...scope, includeTestLeads: false }, regraded: 1, moved: 1 });
    expect((await latestResults()).get(ready.leadId)).toMatchObject({ tier: 'book_call' });

    // ready is no longer homework, yet it is the lead this application re-graded: the undo takes it back
    const undone = (await post('/api/admin/grading/undo')).json();
    expect(undone.application).toMatchObject({ undoOf: applied.application.id, scope: { ...scope, includeTestLeads: false }, regraded: 1 });
    expect(await regradedBy(undone.application.id)).toEqual([ready.leadId]);
    expect((await latestResults()).get(ready.leadId)).toMatchObject({ tier: 'homework', grading_version: 'grading-1.0.0' });

    // undoing the undo re-grades the same lead under the rules undone
    const redone = (await post('/api/admin/grading/undo')).json();
    expect(redone.application).toMatchObject({ version: 'grading-2', undoOf: undone.application.id, regraded: 1 });
    expect(await regradedBy(redone.application.id)).toEqual([ready.leadId]);
  });

  it('takes test leads only when the scope says so', async () => {
    const left = (await post('/api/admin/grading/dry-run', { rules: DEFAULT_GRADING_RULES })).json();
    const included = (await post('/api/admin/grading/dry-run', { rules: DEFAULT_GRADING_RULES, scope: { includeTestLeads: true } })).json();
    expect(included.considered - left.considered).toBe(1);
  });

  it('refuses a bad scope with 400 naming the field, for the dry run and the apply alike', async () => {
    const applications = async () => (await pool.query('SELECT count(*)::int AS n FROM grading_applications')).rows[0].n as number;
    const stored = await applications();
    for (const url of ['/api/admin/grading/dry-run', '/api/admin/grading/apply']) {
      const reversed = await post(url, { rules: PROPOSAL, scope: { from: '2026-03-01', to: '2026-02-01' } });
      expect(reversed.statusCode).toBe(400);
      expect(reversed.json().fields).toEqual({ 'scope.to': 'to must not be before from' });
      const source = await post(url, { rules: PROPOSAL, scope: { source: 'Spring Fair' } });
      expect(source.statusCode).toBe(400);
      expect(source.json().fields).toEqual({ 'scope.source': 'source must be a lead source such as website' });
      const unknown = await post(url, { rules: PROPOSAL, scope: { cohort: 'spring' } });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toContain('scope');
    }
    expect(await applications()).toBe(stored);
  });
});
