import type pg from 'pg';
import { transition } from 'xstate';
import type { FlowMachineName, FlowSnapshotResponse } from '../../machines/protocol/api.js';
import { statePath } from '../../machines/protocol/can-accept.js';
import { runEffects } from './effects.js';
import {
  FlowConflictError,
  FlowNotFoundError,
  getFlow,
  machineOf,
  startFlow,
  toResponse,
  type EventOrigin,
  type FlowRow,
} from './flow-store.js';
import { insertJob, type NewJob } from '../queues/outbox.js';
import type { QueuedJob } from '../queues/direct.js';
import type { FlowPush } from './push.js';
import { serverView } from './server-view.js';
import { queueLeadEventWebhooks } from '../integrations/lead-events.js';

/** An event to apply; a function when its schema depends on the flow's machine, known only once locked. */
export type EventSource =
  | { type: string; [key: string]: unknown }
  | ((machine: FlowMachineName) => { event: { type: string }; expectedVersion?: number });

const MAX_FOLLOW_UPS = 10;

/**
 * One transaction over flows. Events applied through it run the shared machine's pure transition,
 * store the snapshot and the flow_events row, and turn the machine's effects into outbox rows (or,
 * for lead creation, into an immediate follow-up event), all committing or rolling back together.
 * Pushes are collected and published by the engine after the commit.
 */
export class FlowTx {
  readonly pushes: FlowPush[] = [];
  /** Job rows written in this transaction, for the engine to add to BullMQ once committed. */
  readonly jobs: QueuedJob[] = [];

  constructor(
    readonly client: pg.PoolClient,
    private readonly enqueuesDirectly: boolean,
  ) {}

  /** Writes a job row in this transaction (the outbox). */
  async insertJob(job: NewJob): Promise<string> {
    const id = await insertJob(this.client, job, { notify: !this.enqueuesDirectly });
    this.jobs.push({ ...job, id });
    return id;
  }

  /** Applies one event to a flow; see FlowEngine.apply. */
  async apply(id: string, source: EventSource, origin: EventOrigin): Promise<FlowSnapshotResponse> {
    return (await this.run(id, source, origin, false))!;
  }

  /** Like apply, but null instead of a FlowConflictError (a result the flow no longer waits for). */
  applyIfAllowed(id: string, source: EventSource, origin: EventOrigin): Promise<FlowSnapshotResponse | null> {
    return this.run(id, source, origin, true);
  }

  private async run(id: string, source: EventSource, origin: EventOrigin, skipConflict: boolean): Promise<FlowSnapshotResponse | null> {
    const locked = await this.client.query<FlowRow>(
      `SELECT id, machine, version, state, snapshot, lead_id, testing,
              floor(extract(epoch FROM clock_timestamp() - step_started_at) * 1000)::bigint AS step_elapsed_ms
       FROM flows WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!locked.rowCount) throw new FlowNotFoundError(id);
    const row = locked.rows[0]!;
    const read = typeof source === 'function' ? source(row.machine) : { event: source };
    if (read.expectedVersion !== undefined && read.expectedVersion !== row.version) {
      if (skipConflict) return null;
      throw new FlowConflictError(toResponse(row), `The flow is at version ${row.version}, not ${read.expectedVersion}; read it again.`);
    }
    const view = serverView(row.machine);
    const event = await view.adjust(this.client, row, read.event);
    const machine = machineOf(row.machine);
    const current = machine.resolveState(row.snapshot as never);
    const [next, actions] = transition(machine, current, event as never);
    if (next === current && actions.length === 0) {
      if (skipConflict) return null;
      throw new FlowConflictError(toResponse(row), `${event.type} is not allowed in ${row.state}`);
    }
    const state = statePath(next.value);
    const persisted = machine.getPersistedSnapshot(next) as Record<string, unknown>;
    const { type, ...payload } = event;
    // one round trip: the new snapshot and its flow_events row
    const updated = await this.client.query<FlowRow>(
      `WITH moved AS (
         UPDATE flows SET snapshot = $2, state = $3, version = version + 1,
                step_started_at = CASE WHEN $4 THEN clock_timestamp() ELSE step_started_at END
         WHERE id = $1 RETURNING id, machine, version, state, lead_id, testing
       ), logged AS (
         INSERT INTO flow_events (flow_id, seq, type, payload, origin, state_after)
         SELECT id, version, $5, $6, $7, state FROM moved
       )
       SELECT * FROM moved`,
      [id, persisted, state, view.startsStep(current, next), type, payload, origin],
    );
    // the snapshot is not read back: it is the one just written
    const written: FlowRow = { ...updated.rows[0]!, snapshot: persisted };
    const flow = toResponse(written);
    this.pushes.push({ ...flow, origin, event });
    await queueLeadEventWebhooks(this, written, event); // the integrations' outgoing webhooks, in this transaction
    const followUps = await runEffects(this, written, actions);
    let latest = flow;
    for (const followUp of followUps.slice(0, MAX_FOLLOW_UPS)) {
      latest = (await this.applyIfAllowed(id, followUp, 'server')) ?? latest;
    }
    return latest;
  }
}

/** Publishes what a committed transaction applied. */
export type PushPublisher = (pushes: FlowPush[]) => Promise<void>;

/** Adds committed job rows to BullMQ at once, sparing them the relay's round trip. */
export type DirectEnqueuer = (jobs: QueuedJob[]) => Promise<void>;

/**
 * The flows service shared by the server and the workers: the only writer of flows, so every
 * change goes through the shared machines and the outbox.
 */
export class FlowEngine {
  constructor(
    readonly pool: pg.Pool,
    private readonly publish: PushPublisher = async () => {},
    private readonly log: { warn: (object: object, message: string) => void } = { warn: () => {} },
    private readonly enqueue?: DirectEnqueuer,
  ) {}

  /** Starts a flow of `machine` from `input` and stores its first snapshot. */
  start(machine: FlowMachineName, input: unknown, options: Parameters<typeof startFlow>[3] = {}): Promise<FlowSnapshotResponse> {
    return startFlow(this.pool, machine, input, options);
  }

  /** The stored flow, or FlowNotFoundError. */
  get(id: string): Promise<FlowSnapshotResponse> {
    return getFlow(this.pool, id);
  }

  /** Runs `work` in one transaction; what it applied is pushed once it has committed. */
  async transaction<T>(work: (tx: FlowTx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let tx: FlowTx;
    let result: T;
    try {
      await client.query('BEGIN');
      tx = new FlowTx(client, this.enqueue !== undefined);
      result = await work(tx);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    if (tx.jobs.length && this.enqueue) {
      // A job left pending here is picked up by the relay's sweep instead.
      await this.enqueue(tx.jobs).catch((error: unknown) => this.log.warn({ err: error }, 'jobs left to the relay'));
    }
    if (tx.pushes.length) {
      // A lost push is recovered by the browser reading the snapshot; it must not fail the commit.
      await this.publish(tx.pushes).catch((error: unknown) => this.log.warn({ err: error }, 'flow push not published'));
    }
    return result;
  }

  /**
   * Applies one event under a row lock so events on one flow never interleave. An event the state
   * does not take, or one sent against an out-of-date version, is a FlowConflictError.
   */
  apply(id: string, source: EventSource, origin: EventOrigin): Promise<FlowSnapshotResponse> {
    return this.transaction((tx) => tx.apply(id, source, origin));
  }

  /** Like apply, but null instead of a FlowConflictError. */
  applyIfAllowed(id: string, source: EventSource, origin: EventOrigin): Promise<FlowSnapshotResponse | null> {
    return this.transaction((tx) => tx.applyIfAllowed(id, source, origin));
  }
}
