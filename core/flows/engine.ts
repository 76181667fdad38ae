import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { transition } from 'xstate';
import type { FlowMachineName, FlowSnapshotResponse } from '#machines/protocol/api.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { runEffects } from './effects.js';
import { progressAfter, type FlowProgress } from './flow-progress.js';
import { refreshLeadFacts } from '../leads/lead-facts.js';
import { flowMachineVersions } from '#machines/flow-versions.js';
import {
  applyFlowEvent,
  currentSnapshot,
  FlowConflictError,
  FlowNotFoundError,
  getFlow,
  getFlowVersion,
  machineOf,
  mayAccess,
  SERVER_CLOCKED,
  startFlow,
  storedAt,
  toResponse,
  ownVersions,
  type EventOrigin,
  type FlowAccess,
  type FlowRow,
  type StartOptions,
  type WriteVersions,
} from './flow-store.js';
import { insertJob, type NewJob } from '../queues/outbox.js';
import type { QueuedJob } from '../queues/direct.js';
import type { FlowPush } from './push.js';
import { serverView } from './server-view.js';
import { queueLeadEventWebhooks } from '../integrations/lead-events.js';
import { openAttemptJson } from '../leads/lead-attempts.js';

/** An event to apply; a function when its schema depends on the flow's machine, known only once locked. */
export type EventSource =
  { type: string; [key: string]: unknown } | ((machine: FlowMachineName) => { event: { type: string }; expectedVersion?: number });

const MAX_FOLLOW_UPS = 10;

/**
 * The event as a server-clocked machine takes it: stamped with when the server applies it (`at`,
 * ms by PostgreSQL's clock), overwriting any `at` a browser sent, because the machine times its
 * screens by it.
 */
function withServerClock(machine: FlowMachineName, event: { type: string }, clockMs: number): { type: string; at?: number } {
  return SERVER_CLOCKED.has(machine) ? { ...event, at: clockMs } : event;
}

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
    private readonly writeVersions: WriteVersions = ownVersions,
  ) {}

  /** Writes a job row in this transaction (the outbox). */
  async insertJob(job: NewJob): Promise<string> {
    const id = await insertJob(this.client, job, { direct: this.enqueuesDirectly });
    this.jobs.push({ ...job, id });
    return id;
  }

  /** Starts a flow in this transaction: its first snapshot and the effects its first state names. */
  async start(machine: FlowMachineName, input: unknown, options: StartOptions = {}): Promise<FlowSnapshotResponse> {
    const { row, actions } = await startFlow(this.client, machine, input, options, this.writeVersions(machine));
    await runEffects(this, row, actions);
    return toResponse(row);
  }

  /** Applies one event to a flow; see FlowEngine.apply. */
  async apply(id: string, source: EventSource, origin: EventOrigin, access: FlowAccess = 'system'): Promise<FlowSnapshotResponse> {
    return (await this.run(id, source, origin, access, false))!;
  }

  /** Like apply, but null instead of a FlowConflictError (a result the flow no longer waits for). */
  applyIfAllowed(
    id: string,
    source: EventSource,
    origin: EventOrigin,
    access: FlowAccess = 'system',
  ): Promise<FlowSnapshotResponse | null> {
    return this.run(id, source, origin, access, true);
  }

  private async run(
    id: string,
    source: EventSource,
    origin: EventOrigin,
    access: FlowAccess,
    skipConflict: boolean,
  ): Promise<FlowSnapshotResponse | null> {
    // a visitor's event is theirs to send only to their own flow; the server's own code reaches any
    if (origin === 'client' && access === 'system') throw new Error('A visitor event needs the visitor it comes from');
    // named statements (here and on every event's path) are parsed and planned once per connection
    const locked = await this.client.query<FlowRow & FlowProgress & { clock_ms: string }>({
      name: 'lock-flow',
      text: `SELECT id, machine, version, state, snapshot, lead_id, testing, visitor_id, machine_version,
                    diagnostic_done, survey_done, lead_saved, session_booked, steps_reached, last_step, steps_passed,
                    ${openAttemptJson('flows.id')} AS open_attempt,
                    floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS clock_ms
             FROM flows WHERE id = $1 FOR UPDATE`,
      values: [id],
    });
    const row = locked.rows[0];
    if (!row || !mayAccess(access, row.visitor_id)) throw new FlowNotFoundError(id);
    const read = typeof source === 'function' ? source(row.machine) : { event: source };
    if (read.expectedVersion !== undefined && read.expectedVersion !== row.version) {
      if (skipConflict) return null;
      throw new FlowConflictError(toResponse(row), `The flow is at version ${row.version}, not ${read.expectedVersion}; read it again.`);
    }
    const adjusted = await serverView(row.machine).adjust(this.client, row, read.event);
    const event = withServerClock(row.machine, adjusted, Number(row.clock_ms));
    const machine = machineOf(row.machine);
    const current = machine.resolveState(currentSnapshot(row) as never);
    const [next, actions] = transition(machine, current, event as never);
    if (next === current && actions.length === 0) {
      if (skipConflict) return null;
      throw new FlowConflictError(toResponse(row), `${event.type} is not allowed in ${row.state}`);
    }
    const state = statePath(next.value);
    const persisted = machine.getPersistedSnapshot(next) as Record<string, unknown>;
    const { type, ...payload } = event;
    const progress = progressAfter(row.machine, row, { type, payload, stateAfter: state });
    // stored at an older version while a process of it lives (decision 0057)
    const machineVersion = this.writeVersions(row.machine);
    const stored = storedAt(row.machine, persisted, machineVersion);
    const updated = await applyFlowEvent(this.client, { flowId: id, ...stored, type, payload, origin, machineVersion, progress });
    if (updated.lead_id && changesLeadFacts(row, progress, persisted)) await refreshLeadFacts(this.client, [updated.lead_id]);
    // the snapshot is not read back: it is the one just transitioned to, at this build's version
    const written: FlowRow = {
      ...updated,
      state,
      snapshot: persisted,
      machine_version: flowMachineVersions[row.machine].current,
      open_attempt: row.open_attempt,
    };
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

/** The booking lead_facts reads from a deposit's flow: its snapshot's completed path. */
function bookingOf(snapshot: Record<string, unknown>): unknown {
  return (snapshot.context as { completedPath?: { booking?: unknown } } | undefined)?.completedPath?.booking;
}

/**
 * Whether an event changed a fact its lead is counted by (decision 0055): the flow's "diagnostic /
 * survey done", or the booking of what may be its deposit's flow. Most events change neither, so
 * most events write no summary.
 */
function changesLeadFacts(before: FlowRow & FlowProgress, after: FlowProgress, snapshot: Record<string, unknown>): boolean {
  return (
    before.diagnostic_done !== after.diagnostic_done ||
    before.survey_done !== after.survey_done ||
    bookingOf(before.snapshot) !== bookingOf(snapshot)
  );
}

/** Publishes what a committed transaction applied. */
export type PushPublisher = (pushes: FlowPush[]) => Promise<void>;

/** Adds committed job rows to BullMQ at once, sparing them the relay's round trip. */
export type DirectEnqueuer = (jobs: QueuedJob[]) => Promise<void>;

/**
 * The flows service shared by the server and the workers: every event reaches a flow through it,
 * so every change of state goes through the shared machines and the outbox (the rows themselves
 * are written by flow-store.ts, the owner of flows).
 */
export class FlowEngine {
  constructor(
    readonly pool: pg.Pool,
    private readonly publish: PushPublisher = async () => {},
    private readonly log: { warn: (object: object, message: string) => void } = { warn: () => {} },
    private readonly enqueue?: DirectEnqueuer,
    /** The versions flows are written at: this build's, or an older one's while it lives (core/flows/fleet.ts). */
    private readonly writeVersions: WriteVersions = ownVersions,
  ) {}

  private readonly retryIfConnectionLost = {
    onRetry: (error: Error) => this.log.warn({ err: error }, 'flow transaction lost its connection before commit; replayed on a fresh one'),
  };

  /** Starts a flow of `machine` from `input`: its first snapshot and the effects its first state names (e.g. testing mode's clearStoredAssessment), in one transaction. */
  start(machine: FlowMachineName, input: unknown, options: StartOptions = {}): Promise<FlowSnapshotResponse> {
    return this.transaction((tx) => tx.start(machine, input, options));
  }

  /** The stored flow, or FlowNotFoundError (also when `access` may not reach it). */
  get(id: string, access: FlowAccess): Promise<FlowSnapshotResponse> {
    return getFlow(this.pool, id, access);
  }

  /** The flow's version alone (what a socket's subscribe answers), read as `get` reads the flow. */
  version(id: string, access: FlowAccess): Promise<number> {
    return getFlowVersion(this.pool, id, access);
  }

  /**
   * Runs `work` in one transaction; what it applied is pushed once it has committed. A transaction
   * whose connection was lost before its COMMIT is replayed once on a fresh connection (decision
   * 0051): its writes were rolled back, and the replay reads the flow afresh under its row lock, so
   * an event is applied once (or refused by the version check) and the caller sees no failure.
   */
  async transaction<T>(work: (tx: FlowTx) => Promise<T>): Promise<T> {
    let tx!: FlowTx;
    const result = await inTransaction(
      this.pool,
      (client) => {
        tx = new FlowTx(client, this.enqueue !== undefined, this.writeVersions);
        return work(tx);
      },
      { retryIfConnectionLost: this.retryIfConnectionLost },
    );
    // Both at once. Whichever is sent first goes first on Redis: the push, when the visitor's tab
    // learns of the event only by it (a worker's GRADED, say); else the jobs, since a visitor's
    // request is answered with the snapshot itself and waits on the job (its grading) instead. A
    // browser adopts only a newer version, whatever order pushes arrive in.
    // A lost push is recovered by the browser reading the snapshot; it must not fail the commit.
    const publish = async () => {
      if (tx.pushes.length)
        await this.publish(tx.pushes).catch((error: unknown) => this.log.warn({ err: error }, 'flow push not published'));
    };
    // A job left pending here is picked up by the relay's sweep instead.
    const enqueue = async () => {
      if (tx.jobs.length && this.enqueue)
        await this.enqueue(tx.jobs).catch((error: unknown) => this.log.warn({ err: error }, 'jobs left to the relay'));
    };
    const visitorWaitsOnPush = tx.pushes.some((push) => push.origin !== 'client');
    await Promise.all(visitorWaitsOnPush ? [publish(), enqueue()] : [enqueue(), publish()]);
    return result;
  }

  /**
   * Applies one event under a row lock so events on one flow never interleave. An event the state
   * does not take, or one sent against an out-of-date version, is a FlowConflictError.
   */
  apply(id: string, source: EventSource, origin: EventOrigin, access: FlowAccess = 'system'): Promise<FlowSnapshotResponse> {
    return this.transaction((tx) => tx.apply(id, source, origin, access));
  }

  /** Like apply, but null instead of a FlowConflictError. */
  applyIfAllowed(
    id: string,
    source: EventSource,
    origin: EventOrigin,
    access: FlowAccess = 'system',
  ): Promise<FlowSnapshotResponse | null> {
    return this.transaction((tx) => tx.applyIfAllowed(id, source, origin, access));
  }
}
