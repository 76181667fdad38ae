import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRADING_RULES, gradeAssessment, type GradeInput, type GradingRules } from '#machines/grading/index.js';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { REGRADE_INPUTS, seedRegradableLead } from '#test/regradable-leads.js';
import { flowClient, SURVEYS, toSurveyStep } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { lockGradingRules } from '#core/grading/rule-sets.js';

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;
let admin: SignedInAdmin;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true });
  ({ app, pool } = harness);
  admin = await signedInAdmin(pool);
});

afterAll(() => harness?.close());

const INPUTS = REGRADE_INPUTS;

/** The proposal tried below: book_call from 65, homework from 45. */
const PROPOSAL: GradingRules = { ...DEFAULT_GRADING_RULES, thresholds: { bookCall: 65, homework: 45 } };

/** A lead graded under the built-in rules, of source 'regrade' unless told. */
const seedGraded = (input: GradeInput | null, options: { source?: string; test?: boolean } = {}) =>
  seedRegradableLead(pool, input, { source: 'regrade', ...options });

/** A fingerprint of every table a dry run could touch. */
async function fingerprint() {
  const tables = [
    'assessment_results',
    'leads',
    'interactions',
    'jobs',
    'grading_rule_sets',
    'grading_applications',
    'flows',
    'flow_events',
  ];
  const rows = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await pool.query<{ digest: string }>(
        `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${table} t`,
      );
      return [table, rows[0]!.digest];
    }),
  );
  return Object.fromEntries(rows);
}

const post = (url: string, body?: unknown) =>
  app.inject({ method: 'POST', url, headers: admin.headers, ...(body === undefined ? {} : { payload: body as object }) });
const tierOf = async (leadId: string) =>
  (await pool.query<{ tier: string }>('SELECT tier FROM lead_facts(true) WHERE lead_id = $1', [leadId])).rows[0]!.tier;

describe('grading rules: view, dry run, apply, undo', () => {
  it('lets only a signed-in admin see or change the rules', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/admin/grading' })).statusCode).toBe(401);
    const noCsrf = await app.inject({
      method: 'POST',
      url: '/api/admin/grading/apply',
      headers: { cookie: admin.headers.cookie },
      payload: { rules: PROPOSAL },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect((await pool.query('SELECT count(*)::int AS n FROM grading_applications')).rows[0].n).toBe(0);
  });

  it('shows the built-in rules in force with nothing to undo, and refuses an undo with 409', async () => {
    const view = await app.inject({ method: 'GET', url: '/api/admin/grading', headers: admin.headers });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toEqual({
      inForce: { version: 'grading-1.0.0', rules: DEFAULT_GRADING_RULES, builtIn: true, appliedAt: null },
      history: [],
      undoTo: null,
    });
    const undo = await post('/api/admin/grading/undo');
    expect(undo.statusCode).toBe(409);
    expect(undo.json().message).toMatch(/nothing to undo/);
  });

  it('refuses a rule set that does not hold together with 400 naming the field, and stores nothing', async () => {
    const before = await fingerprint();
    const bad = await post('/api/admin/grading/dry-run', {
      rules: { ...PROPOSAL, partWeights: { diagnostic: 0.5, survey: 0.5, mirror: 0.3 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('The three part weights must add up to 1');
    const badApply = await post('/api/admin/grading/apply', { rules: { ...PROPOSAL, thresholds: { bookCall: 50, homework: 60 } } });
    expect(badApply.statusCode).toBe(400);
    expect(JSON.stringify(badApply.json())).toContain('The homework threshold cannot be above the book_call threshold');
    expect(await fingerprint()).toEqual(before);
  });

  let ready: Awaited<ReturnType<typeof seedGraded>>;
  let urgent: Awaited<ReturnType<typeof seedGraded>>;
  let validating: Awaited<ReturnType<typeof seedGraded>>;
  let unstored: Awaited<ReturnType<typeof seedGraded>>;
  let testLead: Awaited<ReturnType<typeof seedGraded>>;
  let elsewhere: Awaited<ReturnType<typeof seedGraded>>;

  it('runs a proposal over past leads and shows who would move, changing no row', async () => {
    ready = await seedGraded(INPUTS.ready);
    urgent = await seedGraded(INPUTS.urgent);
    validating = await seedGraded(INPUTS.validating);
    unstored = await seedGraded(null);
    testLead = await seedGraded(INPUTS.ready, { test: true });
    elsewhere = await seedGraded(INPUTS.validating, { source: 'elsewhere' });
    expect([ready.tier, urgent.tier, validating.tier]).toEqual(['homework', 'book_call', 'nurture']);

    const before = await fingerprint();
    const dry = await post('/api/admin/grading/dry-run', { rules: PROPOSAL, scope: { source: 'regrade' } });
    expect(dry.statusCode, dry.body).toBe(200);
    const report = dry.json();
    // ready 67 -> book_call at 65; validating 49 -> homework at 45; urgent stays; the unstored one is skipped; the test lead is out of scope
    expect(report).toMatchObject({ version: 'grading-2', considered: 4, skipped: 1, unchanged: 1, moved: 2, truncated: false });
    expect(report.moves).toEqual([
      { from: 'book_call', to: 'book_call', leads: 1 },
      { from: 'homework', to: 'book_call', leads: 1 },
      { from: 'nurture', to: 'homework', leads: 1 },
    ]);
    expect(report.leads).toEqual(
      expect.arrayContaining([
        { leadId: ready.leadId, name: 'Test Lead', email: ready.email, from: 'homework', to: 'book_call', fromTotal: 67, toTotal: 67 },
        {
          leadId: validating.leadId,
          name: 'Test Lead',
          email: validating.email,
          from: 'nurture',
          to: 'homework',
          fromTotal: 49,
          toTotal: 49,
        },
      ]),
    );
    // the scope: the current tier, and test leads only when asked
    const nurture = (await post('/api/admin/grading/dry-run', { rules: PROPOSAL, scope: { source: 'regrade', tier: 'nurture' } })).json();
    expect(nurture).toMatchObject({ considered: 1, moved: 1 });
    const withTests = (
      await post('/api/admin/grading/dry-run', { rules: PROPOSAL, scope: { source: 'regrade', includeTestLeads: true } })
    ).json();
    expect(withTests).toMatchObject({ considered: 5, moved: 3 });
    const future = (await post('/api/admin/grading/dry-run', { rules: PROPOSAL, scope: { from: '2999-01-01' } })).json();
    expect(future).toMatchObject({ considered: 0, moved: 0, moves: [] });

    expect(await fingerprint()).toEqual(before);
  });

  it('applies it as new versioned results beside the old ones, moves the tiers, records the events, and grades new leads under it', async () => {
    await pool.query(
      `INSERT INTO integration_settings (key, enabled, configured, value, signing_secret)
       VALUES ('automation', true, true, 'https://hooks.example.com/lead', 'whsec_' || repeat('ab', 32)) ON CONFLICT (key) DO NOTHING`,
    );
    await pool.query(
      `INSERT INTO integration_settings (key, enabled, configured, value, list_id)
       VALUES ('email_marketing', true, true, 'xkeysib-regrade-test-key', '7') ON CONFLICT (key) DO NOTHING`,
    );
    const oldRows = (await pool.query('SELECT * FROM assessment_results ORDER BY id')).rows;
    const applied = await post('/api/admin/grading/apply', { rules: PROPOSAL, note: 'Lower the bar for the spring cohort' });
    expect(applied.statusCode, applied.body).toBe(200);
    const result = applied.json();
    expect(result.version).toBe('grading-2');
    expect(result.application).toMatchObject({
      version: 'grading-2',
      appliedBy: admin.email,
      note: 'Lower the bar for the spring cohort',
      scope: { includeTestLeads: false },
      undoOf: null,
    });
    // without a scope: every lead with stored answers but the test leads, as a dry run without one
    expect(result.application.regraded).toBe(result.considered - result.skipped);
    expect(await tierOf(ready.leadId)).toBe('book_call');
    expect(await tierOf(validating.leadId)).toBe('homework');
    expect(await tierOf(testLead.leadId)).toBe('homework');
    expect(await tierOf(urgent.leadId)).toBe('book_call');
    expect(await tierOf(elsewhere.leadId)).toBe('homework');
    expect(await tierOf(unstored.leadId)).toBe('homework');

    // the old rows are untouched; each re-graded lead has one new row of the new version
    const afterRows = (await pool.query('SELECT * FROM assessment_results ORDER BY id')).rows;
    expect(afterRows.filter((row) => oldRows.some((old) => old.id === row.id))).toEqual(oldRows);
    const newRows = await pool.query(
      'SELECT lead_id, tier, grading_version, application_id::int AS application_id FROM assessment_results WHERE application_id IS NOT NULL',
    );
    expect(newRows.rows).toHaveLength(result.application.regraded);
    expect(newRows.rows.every((row) => row.grading_version === 'grading-2' && row.application_id === result.application.id)).toBe(true);

    // a moved lead's activity says so, and the automation card hears lead.regraded; an unmoved one gets neither
    const activity = await pool.query("SELECT lead_id, content FROM interactions WHERE type = 'regraded' ORDER BY lead_id");
    expect(activity.rows.map((row) => row.lead_id).sort()).toEqual([ready.leadId, validating.leadId, elsewhere.leadId].sort());
    expect(activity.rows.find((row) => row.lead_id === ready.leadId)!.content).toBe(
      'Re-graded under grading-2: homework → book_call (qualification score 67 → 67).',
    );
    // each moved lead's new tier is queued for the email-marketing list too (decision 0048)
    const syncs = await pool.query("SELECT lead_id FROM jobs WHERE name = 'email_marketing:sync'");
    expect(syncs.rows.map((row) => row.lead_id).sort()).toEqual([ready.leadId, validating.leadId, elsewhere.leadId].sort());
    const hooks = await pool.query("SELECT lead_id, payload FROM jobs WHERE name = 'automation:lead.regraded'");
    expect(hooks.rows).toHaveLength(result.moved);
    expect(hooks.rows.find((row) => row.lead_id === validating.leadId)!.payload.body).toMatchObject({
      event: 'lead.regraded',
      leadId: validating.leadId,
      data: {
        tier: 'homework',
        previousTier: 'nurture',
        qualificationScore: 49,
        leadershipScore: expect.any(Number),
        gradingVersion: 'grading-2',
      },
    });

    // the lead's page shows the rules that fired and both results
    const page = (await app.inject({ method: 'GET', url: `/api/admin/leads/${ready.leadId}`, headers: admin.headers })).json();
    expect(page.result).toMatchObject({ tier: 'book_call', grading_version: 'grading-2' });
    expect(page.result.rulesFired.at(-1)).toEqual({
      rule: 'tier',
      label: 'Tier book_call: total 67 is at least 65, the investment is ready (q1) and they can start within 30 days (q2).',
      points: null,
    });
    expect(page.results.map((r: { grading_version: string; regraded: boolean }) => [r.grading_version, r.regraded])).toEqual([
      ['grading-2', true],
      ['grading-1.0.0', false],
    ]);

    // the same numbers applied again keep their version
    const view = (await app.inject({ method: 'GET', url: '/api/admin/grading', headers: admin.headers })).json();
    expect(view.inForce).toMatchObject({ version: 'grading-2', rules: PROPOSAL, builtIn: false });
    expect(view.undoTo).toBe('grading-1.0.0');
  });

  it('grades a new assessment under the rules in force and keeps what it graded', async () => {
    await buildTestWorker(harness, { queues: ['grading', 'timers'] });
    const browser = flowClient(harness.url);
    const { leadId } = await toSurveyStep(browser, pool, `fresh-${randomBytes(4).toString('hex')}@example.com`);
    const graded = await browser.call('POST', '/api/functions/workflow-proxy?wait=1', {
      action: 'lead-assessment',
      data: { leadId, survey: SURVEYS.homework },
    });
    expect(graded.status, JSON.stringify(graded.json)).toBe(200);
    const stored = await pool.query('SELECT grading_version, grade_input, result FROM assessment_results WHERE lead_id = $1', [leadId]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].grading_version).toBe('grading-2');
    expect(stored.rows[0].result.rulesFired.length).toBeGreaterThan(0);
    // what was stored re-grades to the same result under the same rules
    const again = gradeAssessment(stored.rows[0].grade_input, { ruleSet: { version: 'grading-2', rules: PROPOSAL } });
    expect(again).toEqual(stored.rows[0].result);
  });

  it('undoes by applying the previous rules again: the previous tiers come back as new results', async () => {
    const count = async () => (await pool.query('SELECT count(*)::int AS n FROM assessment_results')).rows[0].n as number;
    const before = await count();
    const undone = await post('/api/admin/grading/undo');
    expect(undone.statusCode, undone.body).toBe(200);
    const result = undone.json();
    expect(result.version).toBe('grading-1.0.0');
    // the note is the coach's: the undo is said by undoOf alone
    expect(result.application).toMatchObject({ version: 'grading-1.0.0', note: null, scope: { includeTestLeads: false } });
    expect(result.application.undoOf).toBeGreaterThan(0);
    expect(await tierOf(ready.leadId)).toBe('homework');
    expect(await tierOf(validating.leadId)).toBe('nurture');
    expect(await tierOf(elsewhere.leadId)).toBe('nurture');
    expect(await count()).toBe(before + result.application.regraded);

    const view = (await app.inject({ method: 'GET', url: '/api/admin/grading', headers: admin.headers })).json();
    expect(view.inForce).toMatchObject({ version: 'grading-1.0.0', builtIn: true });
    expect(view.history.map((a: { version: string }) => a.version)).toEqual(['grading-1.0.0', 'grading-2']);
    // undoing the undo puts grading-2 back
    expect(view.undoTo).toBe('grading-2');
  });

  it('waits for a grading in flight and re-grades what it stored, so no lead keeps rules no longer in force', async () => {
    // a grading job in flight: it holds the rules lock shared (as workers/processors/grading.ts does)
    // and has stored a result under the built-in rules, not yet committed
    const job = await pool.connect();
    try {
      await job.query('BEGIN');
      await lockGradingRules(job, 'shared');
      const late = await seedGraded(null);
      await job.query(
        `INSERT INTO assessment_results (lead_id, flow_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score,
           mirror_score, composite_score, result, bank_version, grading_version, grade_input)
         SELECT lead_id, flow_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score, mirror_score,
           composite_score, result, bank_version, grading_version, $2 FROM assessment_results WHERE lead_id = $1`,
        [late.leadId, INPUTS.ready],
      );
      const applying = post('/api/admin/grading/apply', { rules: PROPOSAL });
      // the apply is queued behind the job's lock
      await until(async () => {
        const waiting = await pool.query(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND mode = 'ExclusiveLock'
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return waiting.rows[0].n === 1;
      });
      await job.query('COMMIT');
      const applied = await applying;
      expect(applied.statusCode, applied.body).toBe(200);
      // the same numbers as before keep their version
      expect(applied.json().version).toBe('grading-2');
      expect(await tierOf(late.leadId)).toBe('book_call');
      const latest = await pool.query(
        'SELECT grading_version FROM assessment_results WHERE lead_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
        [late.leadId],
      );
      expect(latest.rows[0].grading_version).toBe('grading-2');
    } finally {
      job.release();
    }
  });
});
