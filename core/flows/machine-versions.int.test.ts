import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowMachineVersions } from '#machines/flow-versions.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { assertStoredFlowsSupported } from './machine-versions.js';
import { FlowEngine } from './engine.js';

// A database of its own: the rows this file writes at unsupported versions must not reach other files' servers.
let harness: TestApp;
let engine: FlowEngine;
beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  engine = new FlowEngine(harness.pool);
});
afterAll(() => harness.close());

describe('flows record the machine version that wrote them', () => {
  it('a started flow and every applied event store the current version; the start check passes', async () => {
    const flow = await engine.start('mirror', {});
    const row = await harness.pool.query<{ machine_version: number }>('SELECT machine_version FROM flows WHERE id = $1', [flow.flowId]);
    expect(row.rows[0]!.machine_version).toBe(flowMachineVersions.mirror.current);
    await expect(assertStoredFlowsSupported(harness.pool)).resolves.toBeUndefined();
  });

  it('the start check names every machine and version it cannot run; the engine refuses such a flow instead of misreading it', async () => {
    const flow = await engine.start('mirror', {});
    // reading it answers the current snapshot while the version is this build's
    expect((await engine.get(flow.flowId, 'system')).snapshot).toMatchObject({ status: 'active' });
    await harness.pool.query('UPDATE flows SET machine_version = 9 WHERE id = $1', [flow.flowId]);
    await harness.pool.query("INSERT INTO flows (machine, state, snapshot) VALUES ('retiredMachine', 'idle', '{\"value\": \"idle\"}')");
    await expect(assertStoredFlowsSupported(harness.pool)).rejects.toThrow(
      'Stored flows this build cannot run: 1 stored mirror flow(s) written by machine version 9, which this build (version 1) is older than; ' +
        '1 stored flow(s) of machine retiredMachine, which this build does not have.',
    );
    await expect(engine.apply(flow.flowId, { type: 'SET_SAVE', save: true }, 'server')).rejects.toThrow(
      'A stored mirror flow was written by machine version 9, which this build cannot run or migrate (it runs version 1).',
    );
    await expect(engine.get(flow.flowId, 'system')).rejects.toThrow('written by machine version 9');
    await harness.pool.query("DELETE FROM flows WHERE machine = 'retiredMachine' OR id = $1", [flow.flowId]);
  });
});
