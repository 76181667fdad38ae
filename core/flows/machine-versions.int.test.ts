import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { StateValue } from 'xstate';
import { flowMachineVersions, type MachineVersioning, type StoredSnapshot } from '#machines/flow-versions.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { NEWER_FLOW_MESSAGE } from '#server/plugins/error-handler.js';
import { flowClient } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { assertStoredFlowsSupported, upgradeStoredFlows } from './machine-versions.js';
import { FlowEngine } from './engine.js';

// A database of its own: the rows this file writes at unsupported versions must not reach other files' servers.
let harness: TestApp;
let engine: FlowEngine;
beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true });
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
  it("a visitor's flow written by a newer build (a rolling deploy under way) is answered 503 with Retry-After, to be tried again on a newer server", async () => {
    const browser = flowClient(harness.url);
    const flow = await browser.start({ machine: 'mirror' });
    await harness.pool.query('UPDATE flows SET machine_version = machine_version + 1 WHERE id = $1', [flow.flowId]);
    onTestFinished(async () => {
      await harness.pool.query('DELETE FROM flows WHERE id = $1', [flow.flowId]);
    });
    for (const answer of [
      await browser.call('GET', `/api/flows/${flow.flowId}`),
      await browser.call('POST', `/api/flows/${flow.flowId}/events`, { event: { type: 'SET_SAVE', save: true } }),
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.json).toMatchObject({ statusCode: 503, message: NEWER_FLOW_MESSAGE });
    }
  });
});

// The versions as a next build would have them: the assessment flow at version 2, whose version 1
// called the capture step `welcome`. The flows this build's engine writes are what version 2 stores.
function renameWelcome(value: StateValue): StateValue {
  if (typeof value === 'string') return value === 'welcome' ? 'capture' : value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key === 'welcome' ? 'capture' : key, child]));
}
const nextVersions = (step: (snapshot: StoredSnapshot) => StoredSnapshot): Record<FlowMachineName, MachineVersioning> => ({
  ...flowMachineVersions,
  assessmentFlow: { current: 2, migrations: { 1: step } },
});
const renamingVersions = nextVersions((snapshot) => ({ ...snapshot, value: renameWelcome(snapshot.value as StateValue) }));

interface Row {
  id: string;
  state: string;
  snapshot: StoredSnapshot;
  machine_version: number;
  version: number;
  updated_at: Date;
}

async function rowOf(id: string): Promise<Row> {
  const found = await harness.pool.query<Row>('SELECT id, state, snapshot, machine_version, version, updated_at FROM flows WHERE id = $1', [
    id,
  ]);
  return found.rows[0]!;
}

/** A flow as version 1 of the next build's assessment flow stored it: at its capture step, then named `welcome`. */
async function storedAtVersionOne(): Promise<string> {
  const flow = await engine.start('assessmentFlow', {});
  await harness.pool.query(
    `UPDATE flows SET state = 'welcome.editing', snapshot = jsonb_set(snapshot, '{value}', '{"welcome": "editing"}'), machine_version = 1,
            updated_at = now() - interval '3 days'
     WHERE id = $1`,
    [flow.flowId],
  );
  return flow.flowId;
}

describe('the start moves stored flows up to the current machine version', () => {
  it('moves every older flow in batches: state renamed in the snapshot and the state column, version and updated_at kept; current flows untouched; a second run moves none', async () => {
    const older: string[] = [];
    for (let i = 0; i < 5; i++) older.push(await storedAtVersionOne());
    // a flow the next build already wrote, at version 2, moved on once by its visitor
    const current = await engine.start('assessmentFlow', {});
    await engine.apply(current.flowId, { type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' }, 'server');
    await harness.pool.query('UPDATE flows SET machine_version = 2 WHERE id = $1', [current.flowId]);
    onTestFinished(async () => {
      await harness.pool.query('DELETE FROM flows WHERE id = ANY($1::uuid[])', [[...older, current.flowId]]);
    });
    const before = new Map(await Promise.all([...older, current.flowId].map(async (id) => [id, await rowOf(id)] as const)));

    const logged: Array<{ object: object; message: string }> = [];
    const log = { info: (object: object, message: string) => logged.push({ object, message }) };
    // batches of two: three transactions for the five older flows
    const moved = await upgradeStoredFlows(harness.pool, { batchSize: 2, versions: renamingVersions, log });
    expect(moved).toEqual({ assessmentFlow: 5, diagnostic: 0, mirror: 0 });
    expect(logged).toEqual([{ object: { moved }, message: 'stored flows moved up to the current machine versions' }]);

    for (const id of older) {
      const row = await rowOf(id);
      const was = before.get(id)!;
      expect(row.machine_version).toBe(2);
      expect(row.snapshot.value).toEqual({ capture: 'editing' });
      expect(row.state).toBe('capture.editing');
      expect(row.snapshot.context).toEqual(was.snapshot.context);
      // the flow means what it meant: a browser holding its version still sends events, and its last activity stays
      expect(row.version).toBe(was.version);
      expect(row.updated_at).toEqual(was.updated_at);
    }
    expect(await rowOf(current.flowId)).toEqual(before.get(current.flowId));

    // the setting lasted only for the move's transactions: the next change to a moved flow stamps updated_at again
    await harness.pool.query('UPDATE flows SET testing = testing WHERE id = $1', [older[0]]);
    expect((await rowOf(older[0]!)).updated_at.getTime()).toBeGreaterThan(before.get(older[0]!)!.updated_at.getTime());

    expect(await upgradeStoredFlows(harness.pool, { versions: renamingVersions })).toEqual({ assessmentFlow: 0, diagnostic: 0, mirror: 0 });
  });

  it('a migration that throws, or whose snapshot the machine cannot restore, fails the start naming the machine, the flow and its version, and moves nothing', async () => {
    const id = await storedAtVersionOne();
    onTestFinished(async () => {
      await harness.pool.query('DELETE FROM flows WHERE id = $1', [id]);
    });
    const before = await rowOf(id);

    const throwing = nextVersions(() => {
      throw new Error('the welcome step has no counterpart');
    });
    await expect(upgradeStoredFlows(harness.pool, { versions: throwing })).rejects.toThrow(
      `The stored assessmentFlow flow ${id}, written by machine version 1, cannot be moved up to version 2: the welcome step has no counterpart.`,
    );
    // a migration that leaves the old name in place: its output names a state the machine does not have
    const forgetful = nextVersions((snapshot) => snapshot);
    await expect(upgradeStoredFlows(harness.pool, { versions: forgetful })).rejects.toThrow(
      `The stored assessmentFlow flow ${id}, written by machine version 1, cannot be moved up to version 2: Child state 'welcome' does not exist on 'assessmentFlow'.`,
    );
    expect(await rowOf(id)).toEqual(before);
  });
});

describe("the assessment flow's version 5 at start: child flows keyed by the step's visit", () => {
  it('a flow in the diagnostic, stored by version 4, counts its visits from its own version: the slot its browser keyed by that version', async () => {
    const flow = await engine.start('assessmentFlow', {
      knownSession: { leadId: null, email: 'ada@example.com', name: 'Ada', source: 'token', leadToken: null },
    });
    expect(flow.state).toBe('diagnostic');
    // as version 4 stored it after six events: no visit count
    await harness.pool.query(
      `UPDATE flows SET snapshot = snapshot #- '{context,childFlowVisit}', machine_version = 4, version = 6 WHERE id = $1`,
      [flow.flowId],
    );
    onTestFinished(async () => {
      await harness.pool.query('DELETE FROM flows WHERE id = $1', [flow.flowId]);
    });
    // read before the start moves it (a mixed deploy), and after
    expect((await engine.get(flow.flowId, 'system')).snapshot).toMatchObject({ context: { childFlowVisit: 6 } });
    await upgradeStoredFlows(harness.pool);
    const row = await rowOf(flow.flowId);
    expect(row).toMatchObject({ machine_version: flowMachineVersions.assessmentFlow.current, version: 6, state: 'diagnostic' });
    expect(row.snapshot.context).toMatchObject({ childFlowVisit: 6 });
  });
});
