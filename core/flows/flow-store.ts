import type pg from 'pg';
import { initialTransition, type AnyStateMachine, type ExecutableActionsFrom } from 'xstate';
import { downgradeSnapshot, flowMachineVersions, upgradeSnapshot } from '#machines/flow-versions.js';
import { flowMachines } from '#machines/index.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { FlowMachineName, FlowSnapshotResponse } from '#machines/protocol/api.js';
import type { FlowMode } from '#machines/protocol/common.js';
import type { OpenAttempt } from '../leads/lead-attempts.js';
import { refreshLeadFacts } from '../leads/lead-facts.js';
import type { FlowProgress } from './flow-progress.js';

/*
 * The one writer of flows and flow_events (core/db/table-owners.ts): the engine, lead capture, the
 * resume link and the start-up version migration change a flow only through the functions here.
 */

/** Who applied an event: the visitor's browser, the server on its own, or a worker's result. */
export type EventOrigin = 'client' | 'server' | 'worker';

/** The event is not one the flow's current state takes; carries the flow as it is. */
export class FlowConflictError extends Error {
  readonly statusCode = 409;
  constructor(
    readonly flow: FlowSnapshotResponse,
    message: string,
  ) {
    super(message);
    this.name = 'FlowConflictError';
  }
}

/** No flow has that id, or none this visitor may see (the same answer, so ids are never confirmed). */
export class FlowNotFoundError extends Error {
  readonly statusCode = 404;
  constructor(id: string) {
    super(`No flow with id ${id}`);
    this.name = 'FlowNotFoundError';
  }
}

/** A flows row as the engine reads it. */
export interface FlowRow {
  id: string;
  machine: FlowMachineName;
  version: number;
  state: string;
  snapshot: Record<string, unknown>;
  lead_id?: string | null;
  testing?: boolean;
  /** The visitor whose browser started it; only they may read it or send it events. */
  visitor_id?: string | null;
  /** The version of the machine that wrote the snapshot (machines/flow-versions.ts); read where the snapshot is. */
  machine_version?: number;
  /**
   * Its attempt still waiting for the address to be confirmed (decision 0044), null for none, as
   * read with the row locked; absent when not read, or when an effect may have changed it since.
   */
  open_attempt?: OpenAttempt | null;
}

/**
 * Machines that time what the visitor does by the server's clock: every event applied to them
 * carries `at` (ms, PostgreSQL's clock, never the browser's), and their input takes the start
 * time as `startedAt`.
 */
export const SERVER_CLOCKED: ReadonlySet<FlowMachineName> = new Set(['diagnostic']);

/**
 * Who reads or changes a flow: a visitor, who reaches only the flows their browser started (null:
 * a browser with no visitor cookie, which reaches none), or the server's own code.
 */
export type FlowAccess = { visitorId: string | null } | 'system';

/** True when `access` may reach a flow started by `owner`. */
export function mayAccess(access: FlowAccess, owner: string | null | undefined): boolean {
  return access === 'system' || (access.visitorId !== null && access.visitorId === owner);
}

/** The shared machine a flow runs. */
export function machineOf(name: FlowMachineName): AnyStateMachine {
  return flowMachines[name] as AnyStateMachine;
}

/**
 * A row's snapshot as this build's machine reads it: moved up from the version that wrote it by the
 * machine's migrations (UnsupportedMachineVersionError when there is no way up).
 */
export function currentSnapshot(row: FlowRow): Record<string, unknown> {
  const versioning = flowMachineVersions[row.machine];
  return upgradeSnapshot(row.machine, versioning, row.machine_version ?? versioning.current, row.snapshot, { version: row.version });
}

/**
 * The machine version a process writes each flow machine at: its own, or an older one while a
 * process of that version still lives (core/flows/fleet.ts, decision 0057).
 */
export type WriteVersions = (machine: FlowMachineName) => number;

/** Writes every machine at this build's version: a process that knows of no older one. */
export const ownVersions: WriteVersions = (machine) => flowMachineVersions[machine].current;

/**
 * A persisted snapshot of this build's machine as a row stores it at `version`: moved down by the
 * machine's down migrations when `version` is older, with the `state` column read from it.
 */
export function storedAt(
  machine: FlowMachineName,
  persisted: Record<string, unknown>,
  version: number,
): { snapshot: Record<string, unknown>; state: string } {
  const versioning = flowMachineVersions[machine];
  const snapshot = version < versioning.current ? downgradeSnapshot(machine, versioning, version, persisted) : persisted;
  return { snapshot, state: statePath(snapshot.value) };
}

/** A flows row as the API answers it, its snapshot as the current machine reads it. */
export function toResponse(row: FlowRow): FlowSnapshotResponse {
  const snapshot = currentSnapshot(row);
  // a row an older version wrote names its state as that version did: read it from the moved snapshot
  const state = snapshot === row.snapshot ? row.state : statePath(snapshot.value);
  return { flowId: row.id, machine: row.machine, version: row.version, state, snapshot };
}

/** Now by PostgreSQL's clock, in ms: the clock every server process and worker shares. */
async function clockMs(db: pg.ClientBase): Promise<number> {
  const now = await db.query<{ ms: string }>('SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms');
  return Number(now.rows[0]!.ms);
}

/**
 * Stores a new flow of `machine` from `input`; returns its row and the effects its first state
 * names, for the caller to run in the same transaction.
 */
export async function startFlow(
  db: pg.ClientBase,
  machineName: FlowMachineName,
  input: unknown,
  options: StartOptions = {},
  machineVersion = flowMachineVersions[machineName].current,
): Promise<{ row: FlowRow; actions: ExecutableActionsFrom<AnyStateMachine>[] }> {
  const machine = machineOf(machineName);
  // a server-clocked machine's first screen is on show from now, by the server's clock
  const startInput = SERVER_CLOCKED.has(machineName) ? { ...(input as object), startedAt: await clockMs(db) } : input;
  const [snapshot, actions] = initialTransition(machine, startInput);
  const stored = storedAt(machineName, machine.getPersistedSnapshot(snapshot), machineVersion);
  const inserted = await db.query<FlowRow>(
    `INSERT INTO flows (machine, mode, lead_id, state, snapshot, testing, visitor_id, machine_version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING id, machine, version, state, snapshot, lead_id, testing, visitor_id, machine_version`,
    [
      machineName,
      options.mode ?? 'assessment',
      options.leadId ?? null,
      stored.state,
      stored.snapshot,
      options.testing ?? false,
      options.visitorId ?? null,
      machineVersion,
    ],
  );
  return { row: inserted.rows[0]!, actions };
}

/** How a flow starts: its mode, testing flag, the lead it is already bound to and the visitor who owns it. */
export interface StartOptions {
  mode?: 'assessment' | 'mirror';
  testing?: boolean;
  leadId?: string | null;
  visitorId?: string | null;
}

/** The stored flow, or FlowNotFoundError (also when `access` may not reach it). */
export async function getFlow(pool: pg.Pool, id: string, access: FlowAccess): Promise<FlowSnapshotResponse> {
  const found = await pool.query<FlowRow>({
    name: 'read-flow',
    text: 'SELECT id, machine, version, state, snapshot, visitor_id, machine_version FROM flows WHERE id = $1',
    values: [id],
  });
  const row = found.rows[0];
  if (!row || !mayAccess(access, row.visitor_id)) throw new FlowNotFoundError(id);
  return toResponse(row);
}

/** A flow's version, for a socket's subscribe: ownership checked as getFlow does, without reading the snapshot. */
export async function getFlowVersion(pool: pg.Pool, id: string, access: FlowAccess): Promise<number> {
  const found = await pool.query<{ version: number; visitor_id: string | null }>({
    name: 'read-flow-version',
    text: 'SELECT version, visitor_id FROM flows WHERE id = $1',
    values: [id],
  });
  const row = found.rows[0];
  if (!row || !mayAccess(access, row.visitor_id)) throw new FlowNotFoundError(id);
  return row.version;
}

/** A transition to store: the flow's next snapshot and state, and the event that led there. */
export interface AppliedEvent {
  flowId: string;
  snapshot: Record<string, unknown>;
  state: string;
  type: string;
  payload: Record<string, unknown>;
  origin: EventOrigin;
  machineVersion: number;
  /** The flow's progress with this event applied (flow-progress.ts), kept on its row. */
  progress: FlowProgress;
}

/**
 * Stores an applied event in one round trip: the new snapshot, the flow's progress and its
 * flow_events row (decision 0055: the progress adds columns to the row already written, no statement). `testing`
 * follows a flow whose context says whether it is a test (the assessment flow's testingMode,
 * switchable until capture). Named, so it is parsed and planned once per connection (every event's path).
 */
export async function applyFlowEvent(client: pg.ClientBase, applied: AppliedEvent): Promise<Omit<FlowRow, 'snapshot'>> {
  const updated = await client.query<FlowRow>({
    name: 'apply-flow-event',
    text: `WITH moved AS (
             UPDATE flows SET snapshot = $2, state = $3, version = version + 1, machine_version = $7,
                              testing = coalesce(($2::jsonb #>> '{context,testingMode}')::boolean, testing),
                              diagnostic_done = $8, survey_done = $9, lead_saved = $10, session_booked = $11,
                              steps_reached = $12, last_step = $13, steps_passed = $14
             WHERE id = $1 RETURNING id, machine, version, state, lead_id, testing, visitor_id, machine_version
           ), logged AS (
             INSERT INTO flow_events (flow_id, seq, type, payload, origin, state_after)
             SELECT id, version, $4, $5, $6, state FROM moved
           )
           SELECT * FROM moved`,
    values: [
      ...[applied.flowId, applied.snapshot, applied.state, applied.type, applied.payload, applied.origin, applied.machineVersion],
      ...[applied.progress.diagnostic_done, applied.progress.survey_done, applied.progress.lead_saved, applied.progress.session_booked],
      ...[applied.progress.steps_reached, applied.progress.last_step, applied.progress.steps_passed],
    ],
  });
  return updated.rows[0]!;
}

/** Binds a flow to the lead its capture wrote, in the capturing event's transaction. */
export async function bindFlowToLead(client: pg.ClientBase, flowId: string, leadId: string): Promise<void> {
  const bound = await client.query<{ done: boolean }>(
    'UPDATE flows SET lead_id = $2 WHERE id = $1 RETURNING diagnostic_done OR survey_done AS done',
    [flowId, leadId],
  );
  // a flow bound after its diagnostic or survey brings that "done" to its lead (decision 0055)
  if (bound.rows[0]?.done) await refreshLeadFacts(client, [leadId]);
}

/**
 * A lead's erase also removes the flows of unconfirmed attempts on its address (decision 0044):
 * they are bound to no lead, so nothing cascades to them, yet their snapshots carry the address.
 * In the erase's transaction, before the lead's row goes (the attempts name the flows).
 */
export async function deleteAttemptFlowsOf(client: pg.ClientBase, leadId: string): Promise<void> {
  await client.query(
    'DELETE FROM flows WHERE lead_id IS NULL AND id IN (SELECT flow_id FROM lead_attempts WHERE lead_id = $1 AND confirmed_at IS NULL)',
    [leadId],
  );
}

/**
 * Makes `visitorId` the owner of the assessment flow (the one owner a flow has, so the browser it
 * was started in no longer reaches it); its mode, or null when there is no such flow. A resume
 * link's opening (core/flows/resume-link.ts).
 */
export async function bindResumedFlow(db: Pick<pg.Pool, 'query'>, flowId: string, visitorId: string): Promise<FlowMode | null> {
  const bound = await db.query<{ mode: FlowMode }>(
    "UPDATE flows SET visitor_id = $2 WHERE id = $1 AND machine = 'assessmentFlow' RETURNING mode",
    [flowId, visitorId],
  );
  return bound.rows[0]?.mode ?? null;
}

/**
 * Writes snapshots moved up to `machineVersion` by the start-up migration (core/flows/machine-versions.ts),
 * leaving `version` and flow_events as they are: the flows mean what they meant.
 */
export async function storeUpgradedSnapshots(
  client: pg.ClientBase,
  upgraded: { id: string; snapshot: unknown; state: string }[],
  machineVersion: number,
): Promise<void> {
  const moved = await client.query<{ lead_id: string | null }>(
    `UPDATE flows f SET snapshot = u.snapshot::jsonb, state = u.state, machine_version = $4
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(id, snapshot, state) WHERE f.id = u.id RETURNING f.lead_id`,
    [upgraded.map((row) => row.id), upgraded.map((row) => JSON.stringify(row.snapshot)), upgraded.map((row) => row.state), machineVersion],
  );
  // a deposit's booking is read from its flow's snapshot
  await refreshLeadFacts(
    client,
    moved.rows.map((row) => row.lead_id),
  );
}
