import type pg from 'pg';
import { initialTransition, type AnyStateMachine } from 'xstate';
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

/** A flows row as the engine reads it. */
export interface FlowRow {
  id: string;
  machine: FlowMachineName;
  version: number;
  state: string;
  snapshot: Record<string, unknown>;
  lead_id?: string | null;
  testing?: boolean;
  /** Milliseconds since the server stamped the current screen as shown (diagnostic flows). */
  step_elapsed_ms?: string | null;
}

/** The shared machine a flow runs. */
export function machineOf(name: FlowMachineName): AnyStateMachine {
  return flowMachines[name] as AnyStateMachine;
}

/** A flows row as the API answers it. */
export function toResponse(row: FlowRow): FlowSnapshotResponse {
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
    `INSERT INTO flows (machine, mode, lead_id, state, snapshot, testing, step_started_at)
     VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())
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
