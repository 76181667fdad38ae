import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { NO_PROGRESS, type FlowProgress } from '#core/flows/flow-progress.js';

/*
 * Each flow's progress as its stored events say, by the migration's own backfill
 * (core/db/migrations/1765518000000_flow-progress.sql): what the admin reads computed from the
 * events before decision 0055. Tests compare what the engine kept on each flows row with it, and
 * fixtures that store events directly (as an older build or an import would) bring their flows'
 * rows up to date with it.
 */

const MIGRATION = readFileSync(new URL('../core/db/migrations/1765518000000_flow-progress.sql', import.meta.url), 'utf8');
const BACKFILL = MIGRATION.slice(MIGRATION.indexOf('WITH steps AS ('), MIGRATION.indexOf('FROM per_flow p WHERE p.flow_id = f.id;'));
const [PER_FLOW, UPDATE] = BACKFILL.split('\nUPDATE flows f\n') as [string, string];

/** Every flow's progress by the backfill's rules, by flow id; flows without events have none. */
export async function progressFromEvents(db: pg.Pool): Promise<Map<string, FlowProgress>> {
  const { rows } = await db.query<FlowProgress & { id: string }>(
    `${PER_FLOW} SELECT f.id, coalesce(p.diagnostic_done, false) AS diagnostic_done, coalesce(p.survey_done, false) AS survey_done,
       coalesce(p.lead_saved, false) AS lead_saved, coalesce(p.session_booked, false) AS session_booked,
       coalesce(p.steps_reached, 0)::int AS steps_reached, p.last_step::int AS last_step, coalesce(p.steps_passed, 0)::int AS steps_passed
     FROM flows f LEFT JOIN per_flow p ON p.flow_id = f.id`,
  );
  return new Map(rows.map(({ id, ...progress }) => [id, { ...NO_PROGRESS, ...progress }]));
}

/** Every flow's progress as its row keeps it, by flow id. */
export async function storedProgress(db: pg.Pool): Promise<Map<string, FlowProgress>> {
  const { rows } = await db.query<FlowProgress & { id: string }>(
    'SELECT id, diagnostic_done, survey_done, lead_saved, session_booked, steps_reached, last_step, steps_passed FROM flows',
  );
  return new Map(rows.map(({ id, ...progress }) => [id, progress]));
}

/** Brings every flow's progress up to date with its stored events (for fixtures that insert events directly). */
export async function storeProgressFromEvents(db: pg.Pool): Promise<void> {
  await db.query(`${PER_FLOW}\nUPDATE flows f\n${UPDATE} FROM per_flow p WHERE p.flow_id = f.id`);
}
