import type pg from 'pg';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { HttpError } from '#core/http-error.js';

/** One of a visitor's own flows, as the adapters read it. */
export interface OwnedFlow {
  id: string;
  machine: FlowMachineName;
  state: string;
  version: number;
  snapshot: Record<string, unknown>;
  lead_id: string | null;
  testing: boolean;
}

const COLUMNS = 'id, machine, state, version, snapshot, lead_id, testing';

/** The answer to anything a visitor may not reach: the same as for what does not exist. */
export function notFound(what: string): HttpError {
  return new HttpError(404, `No ${what} with that id.`);
}

/**
 * The visitor's newest assessment flow bound to `leadId`, or null: the only way an adapter that is
 * given a lead id reaches that lead. A lead id is an identifier, never a credential, so another
 * visitor's lead (even one they share an email address with) is simply not found.
 */
export async function ownedLeadFlow(db: pg.Pool | pg.ClientBase, visitorId: string | null, leadId: string): Promise<OwnedFlow | null> {
  if (!visitorId) return null;
  const found = await db.query<OwnedFlow>(
    `SELECT ${COLUMNS} FROM flows
     WHERE visitor_id = $1 AND machine = 'assessmentFlow' AND lead_id = $2
     ORDER BY updated_at DESC LIMIT 1`,
    [visitorId, leadId],
  );
  return found.rows[0] ?? null;
}

/**
 * Like ownedLeadFlow, but also the visitor's unconfirmed attempt on the lead (decision 0044): the
 * adapters that only carry the visitor's own journey on (its session, survey and free resources)
 * reach it by the lead id its capture answered. Never a way to bind anything to the lead.
 */
export async function ownedJourneyOfLead(db: pg.Pool | pg.ClientBase, visitorId: string | null, leadId: string): Promise<OwnedFlow | null> {
  if (!visitorId) return null;
  const found = await db.query<OwnedFlow>(
    `SELECT ${COLUMNS} FROM flows
     WHERE visitor_id = $1 AND machine = 'assessmentFlow'
       AND (lead_id = $2 OR id IN (SELECT flow_id FROM lead_attempts WHERE lead_id = $2 AND confirmed_at IS NULL))
     ORDER BY updated_at DESC LIMIT 1`,
    [visitorId, leadId],
  );
  return found.rows[0] ?? null;
}

/** One of the visitor's own flows by id (of `machine` when given), or null. */
export async function ownedFlow(
  db: pg.Pool | pg.ClientBase,
  visitorId: string | null,
  flowId: string,
  machine?: FlowMachineName,
): Promise<OwnedFlow | null> {
  if (!visitorId) return null;
  const found = await db.query<OwnedFlow>(`SELECT ${COLUMNS} FROM flows WHERE id = $1 AND visitor_id = $2`, [flowId, visitorId]);
  const flow = found.rows[0];
  return flow && (!machine || flow.machine === machine) ? flow : null;
}

/** The visitor's newest assessment flow standing in one of `states` (dotted paths, prefix match), or null. */
export async function latestOwnedAssessment(
  db: pg.Pool | pg.ClientBase,
  visitorId: string | null,
  states: readonly string[],
): Promise<OwnedFlow | null> {
  if (!visitorId) return null;
  const found = await db.query<OwnedFlow>(
    `SELECT ${COLUMNS} FROM flows
     WHERE visitor_id = $1 AND machine = 'assessmentFlow'
       AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS s WHERE state = s OR state LIKE s || '.%')
     ORDER BY updated_at DESC LIMIT 1`,
    [visitorId, states],
  );
  return found.rows[0] ?? null;
}
