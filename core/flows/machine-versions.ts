import type pg from 'pg';
import type { AnyMachineSnapshot } from 'xstate';
import { canUpgrade, flowMachineVersions, upgradeSnapshot, type MachineVersioning, type StoredSnapshot } from '#machines/flow-versions.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { inTransaction } from '../db/transaction.js';
import { machineOf, storeUpgradedSnapshots } from './flow-store.js';

/**
 * Refuses to start over stored flows this build cannot run: a machine it does not have, or a
 * machine version it can neither run nor migrate (a newer build's flows, or a missing migration).
 * The server runs it after migrating and before it listens, so such a deploy stops with this
 * message instead of failing visitors one request at a time.
 */
export async function assertStoredFlowsSupported(pool: pg.Pool): Promise<void> {
  const stored = await pool.query<{ machine: string; machine_version: number; flows: number }>(
    'SELECT machine, machine_version, count(*)::int AS flows FROM flows GROUP BY machine, machine_version ORDER BY machine, machine_version',
  );
  const problems = stored.rows.flatMap(({ machine, machine_version: version, flows }) => {
    const versioning = flowMachineVersions[machine as FlowMachineName] as (typeof flowMachineVersions)[FlowMachineName] | undefined;
    if (!versioning) return [`${flows} stored flow(s) of machine ${machine}, which this build does not have`];
    if (canUpgrade(versioning, version)) return [];
    return [
      `${flows} stored ${machine} flow(s) written by machine version ${version}, which this build (version ${versioning.current}) ` +
        (version > versioning.current ? 'is older than' : 'has no migration from'),
    ];
  });
  if (problems.length > 0) {
    throw new Error(
      `Stored flows this build cannot run: ${problems.join('; ')}. ` +
        'Deploy a build that runs or migrates them (docs/changing-a-machine.md), or remove those flows.',
    );
  }
}

/** How upgradeStoredFlows runs: rows per transaction, the versions to move up to (tests patch them) and where its one line goes. */
interface UpgradeOptions {
  batchSize?: number;
  versions?: Readonly<Partial<Record<FlowMachineName, MachineVersioning>>>;
  log?: { info: (object: object, message: string) => void };
}

/**
 * A stored snapshot at the current version, as the engine would store it: moved up by the
 * migrations, then restored on this build's machine (which also proves the migration's output is
 * a snapshot the machine can run) and persisted again. Any failure names the flow.
 */
function upgradedRow(
  machine: FlowMachineName,
  versioning: MachineVersioning,
  row: { id: string; version: number; machine_version: number; snapshot: StoredSnapshot },
): { snapshot: StoredSnapshot; state: string } {
  try {
    const logic = machineOf(machine);
    const restored: AnyMachineSnapshot = logic.resolveState(
      upgradeSnapshot(machine, versioning, row.machine_version, row.snapshot, { version: row.version }) as never,
    );
    const snapshot: StoredSnapshot = logic.getPersistedSnapshot(restored);
    return { snapshot, state: statePath(restored.value) };
  } catch (error) {
    throw new Error(
      `The stored ${machine} flow ${row.id}, written by machine version ${row.machine_version}, cannot be moved up to version ` +
        `${versioning.current}: ${error instanceof Error ? error.message : String(error)}. Fix the migration (docs/changing-a-machine.md) before deploying.`,
      { cause: error },
    );
  }
}

/**
 * Moves every stored flow written by an older version of its machine up to the current one, so the
 * queries that read `flows.snapshot` or `flows.state` directly see it as this build's machine would.
 * The server runs it after assertStoredFlowsSupported and before it listens; a flow that cannot be
 * moved (its migration throws, or its output does not restore) stops the start with a message
 * naming the machine, the flow and its version, so a broken migration never serves.
 *
 * In batches, each one transaction: the rows are locked with SKIP LOCKED, so a flow another process
 * holds at that moment (an older server still serving during a deploy) is left where it is: this
 * build's engine moves it up whenever it next reads or writes it (the lazy path, currentSnapshot in
 * flow-store.ts), and the next start moves whatever is left. The flows' optimistic
 * `version` is not bumped and no flow_events row is written: the flow means what it meant, so a
 * browser holding the version it last read still sends its next event without a conflict, and
 * flow_events keeps one row per version. `updated_at` is kept too, because it says when the visitor
 * last did something (the newest stored result, the results a visitor cleared, the admin's lists):
 * the batch's transaction tells the flows' trigger to leave it (SET LOCAL hf.keep_updated_at), which
 * takes no table lock, so other writers of flows carry on.
 *
 * Answers how many flows of each machine it moved, and logs that as one line.
 */
export async function upgradeStoredFlows(pool: pg.Pool, options: UpgradeOptions = {}): Promise<Partial<Record<FlowMachineName, number>>> {
  const { batchSize = 200, versions = flowMachineVersions, log } = options;
  const moved: Partial<Record<FlowMachineName, number>> = {};
  for (const [machine, versioning] of Object.entries(versions) as [FlowMachineName, MachineVersioning][]) {
    moved[machine] = 0;
    const behind = await pool.query('SELECT 1 FROM flows WHERE machine = $1 AND machine_version < $2 LIMIT 1', [
      machine,
      versioning.current,
    ]);
    // the usual start: nothing to move, and no lock taken
    if (behind.rowCount === 0) continue;
    for (;;) {
      const count = await inTransaction(pool, async (client) => {
        // for this transaction only: the flows' trigger leaves updated_at as it is (migration 1764979200000)
        await client.query("SET LOCAL hf.keep_updated_at = 'on'");
        const rows = await client.query<{ id: string; version: number; machine_version: number; snapshot: StoredSnapshot }>(
          `SELECT id, version, machine_version, snapshot FROM flows WHERE machine = $1 AND machine_version < $2
           LIMIT $3 FOR UPDATE SKIP LOCKED`,
          [machine, versioning.current, batchSize],
        );
        const upgraded = rows.rows.map((row) => ({ id: row.id, ...upgradedRow(machine, versioning, row) }));
        await storeUpgradedSnapshots(client, upgraded, versioning.current);
        return rows.rows.length;
      });
      moved[machine] = (moved[machine] ?? 0) + count;
      // a short batch is the last: the rest are none, or flows the engine holds and moves itself
      if (count < batchSize) break;
    }
  }
  log?.info({ moved }, 'stored flows moved up to the current machine versions');
  return moved;
}

/** These machines' versionings: what upgradeStoredFlows moves up once every live process runs them (MachineFleet.settled). */
export function versionsOf(machines: FlowMachineName[]): Partial<Record<FlowMachineName, MachineVersioning>> {
  return Object.fromEntries(machines.map((machine) => [machine, flowMachineVersions[machine]]));
}

/**
 * Once the last process of an older machine version has gone (MachineFleet's onSettled, decision
 * 0057): moves those machines' stored flows up now, and once more `againMs` later, for a flow
 * another process wrote at the older version before it saw the older one go (each reads the fleet
 * every 2 s). A failure is logged; the next start moves what is left.
 */
export async function upgradeSettledFlows(
  pool: pg.Pool,
  machines: FlowMachineName[],
  options: { log: { info: (object: object, message: string) => void; warn: (object: object, message: string) => void }; againMs?: number },
): Promise<void> {
  const sweep = () =>
    upgradeStoredFlows(pool, { versions: versionsOf(machines), log: options.log }).then(
      () => {},
      (error: unknown) => options.log.warn({ err: error, machines }, 'stored flows not moved up; the next start moves them'),
    );
  await sweep();
  setTimeout(() => void sweep(), options.againMs ?? 5_000).unref();
}
