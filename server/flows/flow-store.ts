import type pg from 'pg';
import { initialTransition, transition, type AnyStateMachine } from 'xstate';
import { flowMachines } from '../../machines/index.js';
import { statePath } from '../../machines/protocol/can-accept.js';
import type { FlowMachineName, FlowSnapshotResponse } from '../../machines/protocol/api.js';

/** Who applied an event: the visitor's browser, the server on its own, or a worker's result. */
export type EventOrigin = 'client' | 'server' | 'worker';

/** The event is not one the flow's current state takes; carries the flow as it is. */
export class FlowConflictError extends Error {
  readonly statusCode = 409;
  constructor(readonly flow: FlowSnapshotResponse, message: string) {
    super(message);
    this.name = 'FlowConflictError';
  }
}

/** No flow has that id. */
export class FlowNotFoundError extends Error {
  readonly statusCode = 404;
  constructor(id: string) {
    super(`No flow with id ${id}`);
    this.name = 'FlowNotFoundError';
  }
}

interface FlowRow {
  id: string;
  machine: FlowMachineName;
  version: number;
  state: string;
  snapshot: Record<string, unknown>;
}

function machineOf(name: FlowMachineName): AnyStateMachine {
  return flowMachines[name] as AnyStateMachine;
}

function toResponse(row: FlowRow): FlowSnapshotResponse {
  return { flowId: row.id, machine: row.machine, version: row.version, state: row.state, snapshot: row.snapshot };
}

/** Starts a flow of `machine` from `input` and stores its first snapshot. */
export async function startFlow(
  pool: pg.Pool,
  machineName: FlowMachineName,
  input: unknown,
  options: { mode?: 'assessment' | 'mirror'; testing?: boolean; leadId?: string | null } = {},
): Promise<FlowSnapshotResponse> {
  const machine = machineOf(machineName);
  const [snapshot] = initialTransition(machine, input);
  const persisted = machine.getPersistedSnapshot(snapshot) as Record<string, unknown>;
  const inserted = await pool.query<FlowRow>(
    `INSERT INTO flows (machine, mode, lead_id, state, snapshot, testing) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, machine, version, state, snapshot`,
    [machineName, options.mode ?? 'assessment', options.leadId ?? null, statePath(snapshot.value), persisted, options.testing ?? false],
  );
  return toResponse(inserted.rows[0]!);
}

/** The stored flow, or FlowNotFoundError. */
export async function getFlow(pool: pg.Pool, id: string): Promise<FlowSnapshotResponse> {
  const found = await pool.query<FlowRow>('SELECT id, machine, version, state, snapshot FROM flows WHERE id = $1', [id]);
  if (!found.rowCount) throw new FlowNotFoundError(id);
  return toResponse(found.rows[0]!);
}

/** An event to apply, read once the flow's machine is known (each machine has its own event schema). */
export type EventReader = (machine: FlowMachineName) => { event: { type: string }; expectedVersion?: number };

/**
 * Applies one event with the shared machine's pure transition, under a row lock so events on one
 * flow never interleave. An event the state does not take (or one sent against an out-of-date
 * version) is a FlowConflictError. Otherwise the new snapshot and the flow_events row are written in
 * one transaction.
 */
export async function applyEvent(pool: pg.Pool, id: string, readEvent: EventReader, origin: EventOrigin): Promise<FlowSnapshotResponse> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const locked = await client.query<FlowRow>('SELECT id, machine, version, state, snapshot FROM flows WHERE id = $1 FOR UPDATE', [id]);
    if (!locked.rowCount) throw new FlowNotFoundError(id);
    const row = locked.rows[0]!;
    const { event, expectedVersion } = readEvent(row.machine);
    if (expectedVersion !== undefined && expectedVersion !== row.version) {
      throw new FlowConflictError(toResponse(row), `The flow is at version ${row.version}, not ${expectedVersion}; read it again.`);
    }
    const machine = machineOf(row.machine);
    const current = machine.resolveState(row.snapshot as never);
    const [next, actions] = transition(machine, current, event as never);
    if (next === current && actions.length === 0) {
      throw new FlowConflictError(toResponse(row), `${event.type} is not allowed in ${row.state}`);
    }
    const state = statePath(next.value);
    const persisted = machine.getPersistedSnapshot(next) as Record<string, unknown>;
    const updated = await client.query<FlowRow>(
      `UPDATE flows SET snapshot = $2, state = $3, version = version + 1 WHERE id = $1
       RETURNING id, machine, version, state, snapshot`,
      [id, persisted, state],
    );
    const flow = toResponse(updated.rows[0]!);
    const { type, ...payload } = event;
    await client.query(
      'INSERT INTO flow_events (flow_id, seq, type, payload, origin, state_after) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, flow.version, type, payload, origin, state],
    );
    await client.query('COMMIT');
    return flow;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
