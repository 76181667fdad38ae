import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { scratchDatabase } from '#test/helpers.js';
import { migrate } from './migrate.js';

const TABLES = [
  'leads',
  'lead_tokens',
  'interactions',
  'payment_tracking',
  'contact_submissions',
  'mirror_sessions',
  'mirror_messages',
  'diagnostics',
  'diagnostic_results',
  'survey_responses',
  'assessment_results',
  'flows',
  'flow_events',
  'jobs',
  'users',
  'sessions',
  'integration_settings',
  'chat_bot_messages',
  'processed_assessments',
  'email_outbox',
  'lead_notes',
];

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await client.query<T>(sql, params);
  } finally {
    await client.end();
  }
}

/** Runs the migrations down to just before the one named; answers how many were run down. */
async function migrateDownBefore(url: string, name: string): Promise<number> {
  const dir = fileURLToPath(new URL('./migrations', import.meta.url));
  const files = readdirSync(dir).sort();
  const count = files.length - files.findIndex((file) => file.endsWith(`_${name}.sql`));
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  await runner({ databaseUrl: url, dir, direction: 'down', count, migrationsTable: 'pgmigrations', log: () => {}, logger: quiet });
  return count;
}

describe('migrations', () => {
  it('apply to an empty database and re-applying is a no-op', async () => {
    const url = await scratchDatabase({ migrated: false });
    const first = await migrate(url);
    expect(first.length).toBeGreaterThan(0);
    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(TABLES));

    const schemaBefore = await query(
      url,
      'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 ORDER BY 1, 2',
      ['public'],
    );
    expect(await migrate(url)).toEqual([]);
    const schemaAfter = await query(
      url,
      'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 ORDER BY 1, 2',
      ['public'],
    );
    expect(schemaAfter.rows).toEqual(schemaBefore.rows);
  });

  it('two processes migrating at once apply each migration exactly once', async () => {
    const url = await scratchDatabase({ migrated: false });
    const [a, b] = await Promise.all([migrate(url), migrate(url)]);
    expect([...a, ...b].sort()).toEqual([...new Set([...a, ...b])].sort());
    const applied = await query<{ count: string }>(url, 'SELECT count(*) FROM pgmigrations');
    expect(Number(applied.rows[0]?.count)).toBe(a.length + b.length);
  });

  it('enforces the data model: one non-test lead per email in any case, test leads exempt', async () => {
    const url = await scratchDatabase();
    await query(url, "INSERT INTO leads (email) VALUES ('Ada@Example.com')");
    await expect(query(url, "INSERT INTO leads (email) VALUES ('ada@example.COM')")).rejects.toThrow(/leads_email_key/);
    await query(url, "INSERT INTO leads (email, tags) VALUES ('ada@example.com', '{test,testing-phase}')");
    const leads = await query<{ name: string; source: string }>(url, 'SELECT name, source FROM leads ORDER BY created_at LIMIT 1');
    expect(leads.rows[0]).toEqual({ name: 'Community Member', source: 'website' });
  });

  it('rejects values the product never writes', async () => {
    const url = await scratchDatabase();
    await expect(query(url, "INSERT INTO leads (email, source) VALUES ('a@b.co', 'Not A Source')")).rejects.toThrow(/check constraint/);
    const lead = await query<{ lead_id: string }>(url, "INSERT INTO leads (email) VALUES ('b@b.co') RETURNING lead_id");
    // an outcome has a tier, a rushed attempt none
    const result = (tier: string | null, rushed: boolean) =>
      query(
        url,
        `INSERT INTO assessment_results (lead_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score, mirror_score,
           composite_score, gaming_detected, result, bank_version, grading_version)
         VALUES ($1, $2, $2, 'Forged', 50, 50, 50, 50, 50, $3, '{}', '2.0.0', 'grading-1.0.0')`,
        [lead.rows[0]!.lead_id, tier, rushed],
      );
    await expect(result('book_call', true)).rejects.toThrow(/assessment_results_outcome_check/);
    await expect(result(null, false)).rejects.toThrow(/assessment_results_outcome_check/);
    await result(null, true);
    await result('homework', false);
    await expect(query(url, "INSERT INTO jobs (queue, name) VALUES ('nowhere', 'x')")).rejects.toThrow(/check constraint/);
    const flow = await query<{ id: string }>(
      url,
      "INSERT INTO flows (machine, state, snapshot) VALUES ('assessmentFlow', 'capture', '{}') RETURNING id",
    );
    const flowId = flow.rows[0]!.id;
    await query(url, "INSERT INTO flow_events (flow_id, seq, type, origin, state_after) VALUES ($1, 1, 'START', 'client', 'intro')", [
      flowId,
    ]);
    await expect(query(url, "UPDATE flow_events SET type = 'OTHER' WHERE flow_id = $1", [flowId])).rejects.toThrow(/append-only/);
    await expect(
      query(url, "INSERT INTO flow_events (flow_id, seq, type, origin, state_after) VALUES ($1, 1, 'AGAIN', 'client', 'intro')", [flowId]),
    ).rejects.toThrow(/duplicate key/);
  });

  it('keeps what each stored result graded, from its grading job, when results began to keep it', async () => {
    const url = await scratchDatabase({ migrated: false });
    await migrate(url);
    // back to just before the grading-rules migration, then a result graded the old way
    const after = await migrateDownBefore(url, 'grading-rules');
    const request = {
      assessment: { b1: { type: 'likert', value: 4, responseTime: 5000 } },
      survey: { q1_investment: 'ready_now' },
      mirrorChat: [],
    };
    const seeded = await query<{ job: string; kept: string; orphan: string }>(
      url,
      `WITH lead AS (INSERT INTO leads (email) VALUES ('kept@example.com') RETURNING lead_id),
            job AS (INSERT INTO jobs (queue, name, payload) VALUES ('grading', 'lead-assessment', $1) RETURNING id),
            kept AS (
              INSERT INTO assessment_results (lead_id, job_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score,
                mirror_score, composite_score, result, bank_version, grading_version)
              SELECT lead_id, job.id, 'homework', 'homework', 'x', 60, 60, 60, 50, 60, '{}', '2.0.0', 'grading-1.0.0' FROM lead, job RETURNING id),
            orphan AS (
              INSERT INTO assessment_results (lead_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score,
                mirror_score, composite_score, result, bank_version, grading_version)
              SELECT lead_id, 'nurture', 'nurture', 'x', 40, 40, 40, 50, 40, '{}', '2.0.0', 'grading-1.0.0' FROM lead RETURNING id)
       SELECT (SELECT id FROM job) AS job, (SELECT id FROM kept) AS kept, (SELECT id FROM orphan) AS orphan`,
      [{ flowId: '00000000-0000-4000-8000-000000000000', request: { leadId: 'x', ...request } }],
    );
    expect(await migrate(url)).toHaveLength(after);
    const { rows } = await query<{ id: string; grade_input: unknown }>(url, 'SELECT id, grade_input FROM assessment_results');
    const byId = Object.fromEntries(rows.map((row) => [row.id, row.grade_input]));
    expect(byId[seeded.rows[0]!.kept]).toEqual({
      answers: request.assessment,
      survey: request.survey,
      mirrorChat: [],
      bankVersion: '2.0.0',
    });
    // a result whose job is gone keeps nothing: a re-grade skips it
    expect(byId[seeded.rows[0]!.orphan]).toBeNull();
  });

  it('gives each earlier grading application the scope it re-graded, and an undo no note of its own', async () => {
    const url = await scratchDatabase({ migrated: false });
    await migrate(url);
    const after = await migrateDownBefore(url, 'grading-application-scope');
    await query(
      url,
      `WITH rules AS (INSERT INTO grading_rule_sets (version, rules) VALUES ('grading-2', '{}'), ('grading-1.0.0', '{}')),
            applied AS (INSERT INTO grading_applications (version, note, regraded, moved) VALUES ('grading-2', 'Spring', 3, 1) RETURNING id)
       INSERT INTO grading_applications (version, note, regraded, moved, undo_of)
       SELECT 'grading-1.0.0', 'Undo of application ' || id, 3, 1, id FROM applied`,
    );
    expect(await migrate(url)).toHaveLength(after);
    const { rows } = await query<{ note: string | null; scope: unknown }>(url, 'SELECT note, scope FROM grading_applications ORDER BY id');
    // before scopes, an apply re-graded every lead, test leads included
    expect(rows).toEqual([
      { note: 'Spring', scope: { includeTestLeads: true } },
      { note: null, scope: { includeTestLeads: true } },
    ]);
  });

  it("keeps a diagnostic's answers in one row, in the order answered, and back in rows when run down", async () => {
    const url = await scratchDatabase({ migrated: false });
    await migrate(url);
    const after = await migrateDownBefore(url, 'diagnostic-answers-in-one-row');
    const diagnostic = await query<{ id: string }>(
      url,
      `WITH d AS (INSERT INTO diagnostics (bank_version, status, completed_at) VALUES ('2.0.0', 'completed', now()) RETURNING id),
            a AS (INSERT INTO diagnostic_answers (diagnostic_id, item_id, type, value, confidence, response_ms, timed_out)
                  SELECT id, 'vig_dc', 'vignette', '"dc_convene"', 4, 21000, false FROM d)
       SELECT id FROM d`,
    );
    const id = diagnostic.rows[0]!.id;
    await query(
      url,
      `INSERT INTO diagnostic_answers (diagnostic_id, item_id, type, value, confidence, response_ms, timed_out)
       VALUES ($1, 'b1', 'likert', '4', NULL, 4000, true)`,
      [id],
    );
    await query(url, "INSERT INTO diagnostics (bank_version) VALUES ('2.0.0')"); // started, never answered
    const answers = [
      { item_id: 'vig_dc', type: 'vignette', value: 'dc_convene', confidence: 4, response_ms: 21000, timed_out: false },
      { item_id: 'b1', type: 'likert', value: 4, confidence: null, response_ms: 4000, timed_out: true },
    ];
    expect(await migrate(url)).toHaveLength(after);
    const stored = await query<{ answers: unknown }>(url, 'SELECT answers FROM diagnostics ORDER BY answers IS NULL');
    expect(stored.rows).toEqual([{ answers }, { answers: null }]);

    await migrateDownBefore(url, 'diagnostic-answers-in-one-row');
    const rows = await query(
      url,
      'SELECT item_id, type, value, confidence, response_ms, timed_out FROM diagnostic_answers WHERE diagnostic_id = $1 ORDER BY id',
      [id],
    );
    expect(rows.rows).toEqual(answers);
  });

  it('compresses every column that can hold a large value with lz4 where PostgreSQL has it, and back to the default when run down', async () => {
    const url = await scratchDatabase({ migrated: false });
    await migrate(url);
    const lz4 = await query(url, "SET default_toast_compression = 'lz4'").then(
      () => true,
      () => false,
    );
    // by method: a column added by a later migration that does not name lz4 shows here
    const methods = async () =>
      (
        await query<{ method: string; columns: number }>(
          url,
          `SELECT a.attcompression AS method, count(*)::int AS columns FROM pg_attribute a
           JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r' AND c.relname <> 'pgmigrations'
           JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
           WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attstorage <> 'p' GROUP BY 1`,
        )
      ).rows;
    const up = await methods();
    expect(up).toEqual([{ method: lz4 ? 'l' : '', columns: up[0]!.columns }]);
    expect(up[0]!.columns).toBeGreaterThan(100);
    if (lz4) {
      // a value written after it is compressed with lz4, whatever the session's default
      await query(url, "INSERT INTO jobs (queue, name, payload) VALUES ('email', 'x', jsonb_build_object('text', repeat('lead ', 2000)))");
      const written = await query<{ method: string }>(url, "SELECT pg_column_compression(payload) AS method FROM jobs WHERE name = 'x'");
      expect(written.rows).toEqual([{ method: 'lz4' }]);
    }
    await migrateDownBefore(url, 'lz4-compression');
    expect(await methods()).toEqual([{ method: '', columns: up[0]!.columns }]);
  });
});
