import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { flowMachineVersions, type MachineVersioning, type StoredSnapshot } from '#machines/flow-versions.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { privatePrefix } from '#test/helpers.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { FlowEngine } from './engine.js';
import { fleetKey, MachineFleet } from './fleet.js';
import { upgradeSettledFlows } from './machine-versions.js';

// A database of its own: the settled sweep moves every stored flow of the machine.
let harness: TestApp;
beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
});
afterAll(() => harness.close());

const assessment: MachineVersioning = flowMachineVersions.assessmentFlow;
const OLD = assessment.current;
const NEW = OLD + 1;

/**
 * This process turned into the next build for the test: the assessment flow one version up, a
 * reversible step that adds a context field (and drops it going down). Answers this build's
 * versions, as the older process of the test runs them.
 */
function runNextBuild(): Record<FlowMachineName, MachineVersioning> {
  const saved = { ...assessment };
  const older = { ...flowMachineVersions, assessmentFlow: saved };
  const withField = (snapshot: StoredSnapshot) => ({ ...snapshot, context: { ...(snapshot.context as object), nextField: true } });
  const withoutField = (snapshot: StoredSnapshot) => {
    const { nextField: _dropped, ...context } = snapshot.context as { nextField?: boolean };
    return { ...snapshot, context };
  };
  Object.assign(assessment, {
    current: NEW,
    migrations: { ...saved.migrations, [OLD]: withField },
    downMigrations: { [OLD]: withoutField },
  });
  onTestFinished(() => {
    Object.assign(assessment, saved, { downMigrations: undefined });
  });
  return older;
}

async function rowOf(id: string) {
  const found = await harness.pool.query<{ machine_version: number; snapshot: { context: Record<string, unknown> } }>(
    'SELECT machine_version, snapshot FROM flows WHERE id = $1',
    [id],
  );
  return found.rows[0]!;
}

/** A fleet member that leaves when the test ends. */
function member(fleet: MachineFleet): MachineFleet {
  onTestFinished(() => fleet.stop());
  return fleet;
}

describe('the machine versions of the live processes (decision 0057)', () => {
  it('while an older process lives a newer one writes flows at its version; once it has gone, at its own, and the stored ones move up', async () => {
    const prefix = privatePrefix();
    const older = member(new MachineFleet(harness.redis, prefix, 'server', { versions: runNextBuild() }));
    await older.start();
    const settled: FlowMachineName[][] = [];
    const newer = member(
      new MachineFleet(harness.redis, prefix, 'worker', {
        onSettled: (machines) => {
          settled.push(machines);
          void upgradeSettledFlows(harness.pool, machines, { log: { info: () => {}, warn: () => {} }, againMs: 60_000 });
        },
      }),
    );
    await newer.start();
    expect(newer.writeVersions('assessmentFlow')).toBe(OLD);
    expect(newer.settled()).toEqual(['diagnostic', 'mirror']);

    const engine = new FlowEngine(harness.pool, undefined, undefined, undefined, newer.writeVersions);
    const flow = await engine.start('assessmentFlow', {});
    const answered = await engine.apply(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' }, 'server');
    // the engine answers in its own version; the row is what the older process reads
    expect(answered.snapshot).toMatchObject({ context: { nextField: true } });
    const written = await rowOf(flow.flowId);
    expect(written.machine_version).toBe(OLD);
    expect(written.snapshot.context).not.toHaveProperty('nextField');
    expect((await engine.get(flow.flowId, 'system')).snapshot).toMatchObject({ context: { nextField: true } });

    await older.stop();
    expect(await harness.redis.zcard(fleetKey(prefix))).toBe(1);
    await newer.refresh();
    expect(settled).toEqual([['assessmentFlow']]);
    expect(newer.writeVersions('assessmentFlow')).toBe(NEW);
    // the flow written at the older version is moved up by the settled sweep
    await until(async () => (await rowOf(flow.flowId)).machine_version === NEW, 10_000, 'the stored flow was not moved up');
    expect((await rowOf(flow.flowId)).snapshot.context).toMatchObject({ nextField: true });
    const next = await engine.start('assessmentFlow', {});
    expect((await rowOf(next.flowId)).machine_version).toBe(NEW);
  });

  it('an older process that died without leaving counts as gone once its last beat expires', async () => {
    const prefix = privatePrefix();
    // it beats once and never again, as a process SIGKILLed right after its start
    const killed = member(
      new MachineFleet(harness.redis, prefix, 'server', { versions: runNextBuild(), beatMs: 3_600_000, expiresMs: 300 }),
    );
    await killed.start();
    const newer = member(new MachineFleet(harness.redis, prefix, 'server'));
    await newer.start();
    expect(newer.writeVersions('assessmentFlow')).toBe(OLD);
    await until(
      async () => {
        await newer.refresh();
        return newer.writeVersions('assessmentFlow') === NEW;
      },
      5_000,
      'the dead process still counted',
    );
  });

  it('an irreversible step (no down migration) is written at the newer version at once: the older process then answers 503', async () => {
    const prefix = privatePrefix();
    const older = member(new MachineFleet(harness.redis, prefix, 'server', { versions: runNextBuild() }));
    await older.start();
    // the step without its way down (runNextBuild's end puts the versions back as they were)
    Object.assign(assessment, { downMigrations: undefined });
    const newer = member(new MachineFleet(harness.redis, prefix, 'server'));
    await newer.start();
    expect(newer.writeVersions('assessmentFlow')).toBe(NEW);
  });
});
