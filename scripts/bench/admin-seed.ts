import type pg from 'pg';
import { completeSurvey, resultFor, gamingResult } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { benchJourneys, EMAIL_PLACEHOLDER, LEAD_PLACEHOLDER, type Journey } from './admin-journeys.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';

/*
 * Seeds `count` leads as a coach who ran ads for years would have them, in set operations
 * (generate_series, INSERT ... SELECT): each lead with its assessment flow copied from one of the
 * journeys of admin-journeys.ts (events, state_after and snapshot as the engine writes them), some
 * with a second flow (a return visit with a rushed attempt or an abandoned diagnostic), a share
 * with their diagnostic child flow; the results, diagnostics, surveys, payments, jobs and Mirror
 * sessions their journeys would have written; test leads; creation dates over about three years.
 */

/** The share of leads taking each journey (by name; assessment journeys only). */
const MIX: Record<string, number> = {
  captured: 0.14,
  'in the diagnostic': 0.1,
  'at the survey': 0.06,
  rushed: 0.04,
  'nurture joined': 0.22,
  'nurture at results': 0.1,
  'homework sent': 0.12,
  'homework paid': 0.02,
  'homework at results': 0.05,
  'book_call at results': 0.06,
  'deposit paid, booked': 0.05,
  'deposit paid, reminded': 0.02,
  'deposit paid, coach cancelled': 0.01,
  'deposit refunded, still booked': 0.01,
};

const DAY_SPREAD = 3 * 365;

async function templates(client: pg.ClientBase, journeys: Journey[]): Promise<void> {
  await client.query(`CREATE TEMP TABLE bench_journeys (
    j int PRIMARY KEY, name text, machine text, tier text, rushed boolean, deposit text, state text, snapshot text,
    machine_version int, events int, low float8, high float8, progress jsonb)`);
  await client.query('CREATE TEMP TABLE bench_journey_events (j int, seq int, type text, payload text, origin text, state_after text)');
  let low = 0;
  for (const [j, journey] of journeys.entries()) {
    const share = MIX[journey.name] ?? 0;
    await client.query('INSERT INTO bench_journeys VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)', [
      j,
      journey.name,
      journey.machine,
      journey.tier,
      journey.rushed,
      journey.deposit,
      journey.state,
      journey.snapshot,
      journey.machineVersion,
      journey.events.length,
      share ? low : null,
      share ? low + share : null,
      journey.progress,
    ]);
    low += share;
    await client.query(
      `INSERT INTO bench_journey_events
       SELECT $1, e.seq, e.type, e.payload, e.origin, e.state_after
       FROM jsonb_to_recordset($2) AS e(seq int, type text, payload text, origin text, state_after text)`,
      [j, JSON.stringify(journey.events.map((event, index) => ({ ...event, seq: index + 1 })))],
    );
  }
  if (Math.abs(low - 1) > 1e-9) throw new Error(`the journey mix adds up to ${low}, not 1`);
}

/** Runs one statement and says how long it took. */
async function step(client: pg.ClientBase, label: string, sql: string, params: unknown[] = []): Promise<void> {
  const started = performance.now();
  const result = await client.query(sql, params);
  process.stdout.write(`  ${label}: ${result.rowCount ?? 0} rows in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

/** Seeds the leads and everything about them; answers how many flows it wrote. */
export async function seedAdminLeads(pool: pg.Pool, count: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT setseed(0.42)');
    await templates(client, benchJourneys());
    const tierResult = (tier: string) => JSON.stringify({ ...resultFor(tier as 'nurture'), fallback: false, gamingDetected: false });

    // the leads, their visitors and the journey each took; dates skewed towards recent years (ads ramped up)
    await step(
      client,
      'leads (staged)',
      `CREATE TEMP TABLE bl AS
       SELECT i, gen_random_uuid() AS lead_id, gen_random_uuid() AS visitor_id,
              date_trunc('second', now() - power(random(), 1.6) * $2 * interval '1 day') AS created_at,
              random() < 0.06 AS test, random() AS pick, random() AS extra, random() AS child,
              (ARRAY['website', 'facebook', 'linkedin', 'google', 'referral', 'podcast'])[1 + floor(random() * 6)::int] AS source
       FROM generate_series(1, $1::int) AS i`,
      [count, DAY_SPREAD],
    );
    await client.query(`ALTER TABLE bl ADD COLUMN j int, ADD COLUMN email text`);
    await client.query(`UPDATE bl SET j = (SELECT j FROM bench_journeys WHERE bl.pick >= low AND bl.pick < high),
                               email = 'lead-' || i || CASE WHEN test THEN '+test' ELSE '' END || '@example.com'`);
    await step(client, 'visitors', "INSERT INTO visitors (id, created_at) SELECT visitor_id, created_at - interval '3 minutes' FROM bl");
    await step(
      client,
      'leads',
      `INSERT INTO leads (lead_id, email, name, source, tags, created_at, updated_at)
       SELECT lead_id, email, 'Lead ' || i, source, CASE WHEN test THEN ARRAY['test'] ELSE '{}' END, created_at, created_at FROM bl`,
    );

    // the flows: each lead's own; a second, later one for 12% (half a rushed attempt, half an abandoned
    // diagnostic); the diagnostic child flow for a fifth of those that started the diagnostic
    await step(
      client,
      'flows (staged)',
      `CREATE TEMP TABLE bf AS
       SELECT gen_random_uuid() AS id, lead_id, lead_id AS owner, visitor_id, email, test, j, created_at - interval '2 minutes' AS created_at, true AS main FROM bl
       UNION ALL
       SELECT gen_random_uuid(), lead_id, lead_id, visitor_id, email, test,
              (SELECT j FROM bench_journeys WHERE name = CASE WHEN extra < 0.06 THEN 'rushed' ELSE 'in the diagnostic' END),
              created_at + (1 + extra * 300) * interval '1 day', false
       FROM bl WHERE extra < 0.12 AND created_at + (1 + extra * 300) * interval '1 day' < now()
       UNION ALL
       SELECT gen_random_uuid(), NULL, bl.lead_id, visitor_id, email, test,
              (SELECT j FROM bench_journeys WHERE name = CASE WHEN b.name = 'in the diagnostic' THEN 'diagnostic stopped early' ELSE 'diagnostic finished' END),
              created_at - interval '1 minute', false
       FROM bl JOIN bench_journeys b USING (j)
       WHERE child < 0.2 AND b.name NOT IN ('captured')`,
    );
    await step(
      client,
      'flows',
      `INSERT INTO flows (id, machine, mode, lead_id, visitor_id, state, snapshot, version, testing, created_at, updated_at, machine_version,
                          diagnostic_done, survey_done, lead_saved, session_booked, steps_reached, last_step, steps_passed)
       SELECT f.id, b.machine, 'assessment', f.lead_id, f.visitor_id, b.state,
              replace(replace(replace(b.snapshot, $1, f.owner::text), $2, f.email), '"testingMode":false', '"testingMode":' || f.test)::jsonb,
              b.events, f.test, f.created_at, f.created_at + b.events * interval '40 seconds', b.machine_version,
              p.diagnostic_done, p.survey_done, p.lead_saved, p.session_booked, p.steps_reached, p.last_step, p.steps_passed
       FROM bf f JOIN bench_journeys b USING (j)
       CROSS JOIN LATERAL jsonb_to_record(b.progress) AS p(diagnostic_done boolean, survey_done boolean, lead_saved boolean,
         session_booked boolean, steps_reached int, last_step smallint, steps_passed int)`,
      [LEAD_PLACEHOLDER, EMAIL_PLACEHOLDER],
    );
    await step(
      client,
      'flow_events',
      `INSERT INTO flow_events (flow_id, seq, type, payload, origin, state_after, created_at)
       SELECT f.id, e.seq, e.type, replace(replace(e.payload, $1, f.owner::text), $2, f.email)::jsonb, e.origin, e.state_after,
              f.created_at + e.seq * interval '40 seconds'
       FROM bf f JOIN bench_journey_events e USING (j)`,
      [LEAD_PLACEHOLDER, EMAIL_PLACEHOLDER],
    );

    // what grading wrote: a job, the diagnostic and its result, the survey and the assessment result
    await step(
      client,
      'graded (staged)',
      `CREATE TEMP TABLE bg AS
       SELECT f.id AS flow_id, f.lead_id, f.test, b.tier, b.rushed, b.deposit, b.name, f.created_at + interval '5 minutes' AS at,
              gen_random_uuid() AS job_id, gen_random_uuid() AS diagnostic_id,
              CASE b.tier WHEN 'book_call' THEN 68 + random() * 30 WHEN 'homework' THEN 45 + random() * 23 ELSE 5 + random() * 40 END AS score
       FROM bf f JOIN bench_journeys b USING (j)
       WHERE f.lead_id IS NOT NULL AND (b.tier IS NOT NULL OR b.rushed)`,
    );
    await step(
      client,
      'jobs',
      `INSERT INTO jobs (id, queue, name, payload, flow_id, lead_id, status, attempts, created_at, enqueued_at, finished_at, updated_at, last_error)
       SELECT job_id, 'grading', 'lead-assessment', jsonb_build_object('flowId', flow_id), flow_id, lead_id,
              CASE WHEN random() < 0.01 THEN 'failed' ELSE 'completed' END, 1, at, at, at + interval '2 seconds', at + interval '2 seconds', NULL
       FROM bg
       UNION ALL
       SELECT gen_random_uuid(), 'email', 'results', jsonb_build_object('flowId', flow_id), flow_id, lead_id, 'completed', 1,
              at + interval '3 seconds', at + interval '3 seconds', at + interval '5 seconds', at + interval '5 seconds', NULL
       FROM bg WHERE NOT test AND NOT rushed
       UNION ALL
       SELECT gen_random_uuid(), 'payments', 'start-payment', jsonb_build_object('flowId', flow_id), flow_id, lead_id, 'completed', 1,
              at + interval '2 minutes', at + interval '2 minutes', at + interval '2 minutes', at + interval '2 minutes', NULL
       FROM bg WHERE deposit <> 'none' OR name = 'homework paid'
       UNION ALL
       SELECT gen_random_uuid(), 'timers', 'BOOKING_REMINDER_DUE', jsonb_build_object('flowId', flow_id), flow_id, NULL,
              CASE WHEN name = 'deposit paid, reminded' THEN 'completed' ELSE 'pending' END, 0,
              at + interval '3 minutes', NULL, NULL, at + interval '3 minutes', NULL
       FROM bg WHERE deposit <> 'none'
       UNION ALL
       SELECT gen_random_uuid(), 'webhooks', 'lead-event', jsonb_build_object('flowId', flow_id), flow_id, lead_id, 'failed', 5,
              at, at, at + interval '1 hour', at + interval '1 hour', 'connect ECONNREFUSED'
       FROM bg WHERE random() < 0.02`,
    );
    await step(
      client,
      'diagnostics',
      `INSERT INTO diagnostics (id, lead_id, flow_id, bank_version, status, started_at, completed_at)
       SELECT diagnostic_id, lead_id, flow_id, '2.0.0', 'completed', at - interval '4 minutes', at FROM bg`,
    );
    await step(
      client,
      'diagnostic_results',
      `INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version, completed_at)
       SELECT diagnostic_id, lead_id, '{"LER": 65, "DCR": 60, "VIS": 70}', 'Emerging Leader', 'You lead by example.', '2.0.0', 'grading-1', at
       FROM bg`,
    );
    await step(
      client,
      'survey_responses',
      `INSERT INTO survey_responses (lead_id, flow_id, job_id, answers, survey_score, created_at)
       SELECT lead_id, flow_id, job_id, $1::jsonb, round(score::numeric, 2), at FROM bg`,
      [JSON.stringify(completeSurvey)],
    );
    await step(
      client,
      'assessment_results',
      `INSERT INTO assessment_results (lead_id, flow_id, diagnostic_id, job_id, tier, qualification, archetype, total_score, diagnostic_score,
         survey_score, mirror_score, composite_score, gaming_detected, fallback, result, bank_version, grading_version, created_at)
       SELECT lead_id, flow_id, diagnostic_id, job_id, tier, tier, 'Emerging Leader', round(score::numeric, 2), round(score::numeric, 2),
              round(score::numeric, 2), 50, round((score * 0.8 + 10)::numeric, 2), rushed, false,
              CASE tier WHEN 'book_call' THEN $1::jsonb WHEN 'homework' THEN $2::jsonb WHEN 'nurture' THEN $3::jsonb ELSE $4::jsonb END,
              '2.0.0', 'grading-1', at
       FROM bg`,
      [tierResult('book_call'), tierResult('homework'), tierResult('nurture'), JSON.stringify(gamingResult())],
    );

    // payments: deposits (paid, refunded), paid homework, and some checkouts that failed
    await step(
      client,
      'payment_tracking',
      `INSERT INTO payment_tracking (payment_intent_id, checkout_session_id, lead_id, flow_id, purpose, amount_cents, status, test_mode,
         refund_id, refunded_at, created_at, updated_at)
       SELECT 'pi_bench_' || flow_id, 'cs_bench_' || flow_id, lead_id, flow_id,
              CASE WHEN name = 'homework paid' THEN 'paid_homework' ELSE 'deposit' END,
              CASE WHEN name = 'homework paid' THEN 9700 ELSE 25000 END,
              CASE WHEN deposit = 'refunded' THEN 'refunded' WHEN deposit = 'paid' OR name = 'homework paid' THEN 'succeeded' ELSE 'failed' END,
              test, CASE WHEN deposit = 'refunded' THEN 're_bench_' || flow_id END,
              CASE WHEN deposit = 'refunded' THEN at + interval '9 days' END, at + interval '2 minutes', at + interval '2 minutes'
       FROM bg WHERE deposit <> 'none' OR name = 'homework paid' OR (name = 'book_call at results' AND random() < 0.15)`,
    );

    // Mirror sessions of a tenth of the flows; a third saved, with their conversation
    await step(
      client,
      'mirror_sessions (staged)',
      `CREATE TEMP TABLE bm AS
       SELECT gen_random_uuid() AS id, f.lead_id, f.id AS flow_id, random() < 0.33 AS saved, 1 + floor(random() * 5)::int AS turns,
              f.created_at + interval '1 minute' AS created_at
       FROM bf f WHERE f.lead_id IS NOT NULL AND random() < 0.1`,
    );
    await step(
      client,
      'mirror_sessions',
      `INSERT INTO mirror_sessions (id, lead_id, flow_id, saved, turns, completed, created_at, updated_at)
       SELECT id, CASE WHEN saved THEN lead_id END, flow_id, saved, turns, turns = 5, created_at, created_at + turns * interval '1 minute' FROM bm`,
    );
    await step(
      client,
      'mirror_messages',
      `INSERT INTO mirror_messages (session_id, role, content, turn, created_at)
       SELECT m.id, r.role, CASE r.role WHEN 'user' THEN 'Whether to promote from within, turn ' || t ELSE 'What makes that hard for you?' END,
              t, m.created_at + t * interval '1 minute'
       FROM bm m CROSS JOIN generate_series(1, 5) AS t CROSS JOIN (VALUES ('user'), ('mirror')) AS r(role)
       WHERE m.saved AND t <= m.turns`,
    );
    await step(
      client,
      'site_visits',
      `INSERT INTO site_visits (visitor_id, day, path, created_at)
       SELECT visitor_id, (created_at - k * interval '1 day')::date, (ARRAY['/', '/about', '/assessment', '/mirror'])[k + 1],
              created_at - k * interval '1 day'
       FROM bl CROSS JOIN generate_series(0, 3) AS k`,
    );
    const started = performance.now();
    await client.query('VACUUM ANALYZE'); // as autovacuum leaves a live database: index-only scans need the visibility map
    process.stdout.write(`  vacuum analyze: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    // each lead's summary from lead_facts, as installing the definition writes them (the owners keep them after)
    const summarized = performance.now();
    await refreshAllLeadFacts(client);
    await client.query('VACUUM ANALYZE lead_summaries');
    process.stdout.write(`  lead_summaries: ${((performance.now() - summarized) / 1000).toFixed(1)} s\n`);
  } finally {
    await client.query('DROP TABLE IF EXISTS bl, bf, bg, bm, bench_journeys, bench_journey_events').catch(() => {});
    client.release();
  }
}
