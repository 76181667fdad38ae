import type { FlowMachineName } from './protocol/api.js';
import { FOLLOW_UP_DELAY_MS } from './protocol/assessment-flow.js';

/** A persisted snapshot as the flows table stores it. */
export type StoredSnapshot = Record<string, unknown>;

/** What a migration may read of the stored flow besides its snapshot. */
export interface StoredFlow {
  /** flows.version: how many events the flow has taken (0 at its start); the snapshot does not hold it. */
  version: number;
}

/**
 * How one flow machine has changed: the version this build runs, and for every older version a
 * migration that moves a stored snapshot of it one version up. A change to a machine that a stored
 * snapshot could notice (a renamed or removed state, a changed context shape) bumps `current` and
 * adds the step from the previous version (docs/changing-a-machine.md).
 */
export interface MachineVersioning {
  current: number;
  /** migrations[n] turns a snapshot of version n into one of version n + 1. */
  migrations: Readonly<Record<number, (snapshot: StoredSnapshot, flow: StoredFlow) => StoredSnapshot>>;
  /**
   * eventMigrations[n] turns an event queued for version n into one for version n + 1, when the
   * change renames an event a queued job may carry: a delayed transition's event is named after
   * its state's path (xstate.after.<delay>.<machine>.<path>), so renaming that state renames it.
   */
  eventMigrations?: Readonly<Record<number, (event: QueuedEvent) => QueuedEvent>>;
  /**
   * downMigrations[n] turns a snapshot of version n + 1 back into one of version n: declared for a
   * reversible step, one a process of version n can still run flows after. While such a process
   * lives, newer ones write flows at n (writeVersion, decision 0057), so a rolling deploy never
   * hands an older process a flow it cannot read. A step without one, or one that renames queued
   * events, is irreversible: newer processes write their own version at once.
   */
  downMigrations?: Readonly<Record<number, (snapshot: StoredSnapshot) => StoredSnapshot>>;
}

/** An event as a queued job holds it. */
export type QueuedEvent = { type: string } & Record<string, unknown>;

/** The versions of the machines the server runs as flows. Every flow row records the one it was written by. */
export const flowMachineVersions: Readonly<Record<FlowMachineName, MachineVersioning>> = {
  assessmentFlow: {
    current: 5,
    migrations: {
      // version 2: `payment_success.booked` meant the booking page was opened; it is now
      // `booking_opened`, and `booked` is a booking the scheduling provider reported. The deposit
      // path's `booked: boolean` becomes `booking: 'none' | 'opened' | 'booked'`.
      1: (snapshot) => {
        const context = snapshot.context as { completedPath?: { kind?: string; booked?: boolean } | null } | undefined;
        const path = context?.completedPath;
        // a version 1 deposit path carries `booked`; a snapshot without it is left as it is, so the
        // step is harmless on one already in the new shape
        if (!context || path?.kind !== 'deposit_paid' || !('booked' in path)) return snapshot;
        const value = snapshot.value as { payment_success?: unknown } | string;
        return {
          ...snapshot,
          value: typeof value === 'object' && value.payment_success === 'booked' ? { payment_success: 'booking_opened' } : value,
          context: { ...context, completedPath: { kind: 'deposit_paid', booking: path.booked ? 'opened' : 'none' } },
        };
      },
      // version 3: the follow-up reminders. A flow written before them has neither been reminded
      // nor has a reminder pending (its timers were never set), and waits the default day.
      2: (snapshot) => {
        const context = snapshot.context as Record<string, unknown> | undefined;
        if (!context || 'followUps' in context) return snapshot;
        const followUps = {
          bookingReminderMs: FOLLOW_UP_DELAY_MS,
          assessmentReminderMs: FOLLOW_UP_DELAY_MS,
          remindedToBook: false,
          remindedToFinish: false,
        };
        return { ...snapshot, context: { ...context, followUps } };
      },
      // version 4: the 1 s reveal is the screen's pause, not a state (decision 0029). A flow caught
      // in `processing.revealing` has its result: it is at `results`, and its pending reveal
      // timer finds a flow that no longer takes it, and is skipped.
      3: (snapshot) => {
        const value = snapshot.value as { processing?: unknown } | string;
        if (typeof value !== 'object' || value.processing !== 'revealing') return snapshot;
        return { ...snapshot, value: 'results' };
      },
      // version 5: the child flow of a diagnostic or Mirror visit is keyed by the visit
      // (childFlowVisit), no longer by the parent's version, which a reminder or a webhook bumps
      // (decision 0034). A flow counts its visits on from its version: one caught in the
      // diagnostic or the Mirror keeps the slot its browser holds that child flow under
      // (child:<flow>:<step>:<version>, childFlowSlot), and its next visit counts past every
      // slot a browser wrote while the version keyed them.
      4: (snapshot, flow) => {
        const context = snapshot.context as Record<string, unknown> | undefined;
        if (!context || 'childFlowVisit' in context) return snapshot;
        return { ...snapshot, context: { ...context, childFlowVisit: flow.version } };
      },
    },
  },
  diagnostic: { current: 1, migrations: {} },
  mirror: { current: 1, migrations: {} },
};

/** A stored snapshot this build can neither run nor migrate. */
export class UnsupportedMachineVersionError extends Error {
  constructor(
    readonly machine: string,
    readonly version: number,
    readonly current: number,
  ) {
    super(
      `A stored ${machine} flow was written by machine version ${version}, which this build cannot run or migrate ` +
        `(it runs version ${current}${version < current ? ` and has no migration from ${version}` : ''}).`,
    );
    this.name = 'UnsupportedMachineVersionError';
  }
}

/** True when a snapshot of `version` runs on this build, as it is or through its migrations. */
export function canUpgrade(versioning: MachineVersioning, version: number): boolean {
  if (!Number.isInteger(version) || version > versioning.current || version < 1) return false;
  for (let step = version; step < versioning.current; step++) if (!versioning.migrations[step]) return false;
  return true;
}

/**
 * A stored snapshot of `version` as the current machine reads it: each migration from its version
 * up, in order; the snapshot itself when it is current. `flow` is the rest of the stored flow a
 * migration may read. Throws UnsupportedMachineVersionError for a version the build cannot reach
 * (newer than it, or with a missing step).
 */
export function upgradeSnapshot(
  machine: string,
  versioning: MachineVersioning,
  version: number,
  snapshot: StoredSnapshot,
  flow: StoredFlow,
): StoredSnapshot {
  if (!canUpgrade(versioning, version)) throw new UnsupportedMachineVersionError(machine, version, versioning.current);
  let upgraded = snapshot;
  for (let step = version; step < versioning.current; step++) upgraded = versioning.migrations[step]!(upgraded, flow);
  return upgraded;
}

/**
 * The version a build of `versioning` writes flows at while the oldest live process runs `oldest`:
 * that version when every step down to it is reversible (a down migration, no renamed events),
 * else its own (an older process then answers such a flow 503 until it is replaced).
 */
export function writeVersion(versioning: MachineVersioning, oldest: number): number {
  if (!Number.isInteger(oldest) || oldest >= versioning.current || oldest < 1) return versioning.current;
  for (let step = oldest; step < versioning.current; step++)
    if (!versioning.downMigrations?.[step] || versioning.eventMigrations?.[step]) return versioning.current;
  return oldest;
}

/**
 * A snapshot of the current version as `version` stores it: each down migration from the current
 * version down, in order. Throws UnsupportedMachineVersionError for a version writeVersion never gives.
 */
export function downgradeSnapshot(
  machine: string,
  versioning: MachineVersioning,
  version: number,
  snapshot: StoredSnapshot,
): StoredSnapshot {
  if (writeVersion(versioning, version) !== version) throw new UnsupportedMachineVersionError(machine, version, versioning.current);
  let downgraded = snapshot;
  for (let step = versioning.current - 1; step >= version; step--) downgraded = versioning.downMigrations![step]!(downgraded);
  return downgraded;
}

/**
 * An event queued (a timer job) while the flow ran on `version`, as the current machine names it:
 * each event migration from that version up, in order. An event of a newer version, or one no step
 * renames, is returned as it is; a flow that no longer takes it skips it.
 */
export function upgradeEvent(versioning: MachineVersioning, version: number, event: QueuedEvent): QueuedEvent {
  let upgraded = event;
  for (let step = Math.max(1, version); step < versioning.current; step++) {
    const migrate = versioning.eventMigrations?.[step];
    if (migrate) upgraded = migrate(upgraded);
  }
  return upgraded;
}
