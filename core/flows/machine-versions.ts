import type pg from 'pg';
import { canUpgrade, flowMachineVersions } from '#machines/flow-versions.js';
import type { FlowMachineName } from '#machines/protocol/api.js';

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
