import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createActor,
  createMachine,
  transition,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
  type StateValue,
} from 'xstate';
import { describe, expect, it } from 'vitest';
import { canUpgrade, flowMachineVersions, upgradeSnapshot, type MachineVersioning, type StoredSnapshot } from '../flow-versions.js';
import { flowMachines } from '../index.js';
import type { FlowMachineName } from '../protocol/api.js';
import { statePath } from '../protocol/can-accept.js';
import { buildCorpus, corpusFileName, corpusWalks, type CorpusEntry } from './paths.js';

// The stored-snapshot corpus: one persisted snapshot of every state the model-based walks reach,
// kept per machine version in this folder (`npm run machines:corpus` writes the current version's).
// A stored flow can be in any of those states when a deploy lands, so every fixture, of every
// version, must still restore on this build's machine and reach an end, through the migrations
// when it is older.

const names = Object.keys(flowMachines) as FlowMachineName[];
/** The stored flow's own version (flows.version), which a fixture does not record: no way to an end depends on it. */
const storedFlow = { version: 12 };
const corpusDir = fileURLToPath(new URL('./', import.meta.url));
const STALE = 'is not what `npm run machines:corpus` writes for this machine';

/** The corpus files on disk, with the machine and version their names give. */
const corpusFiles = readdirSync(corpusDir).flatMap((file) => {
  const named = /^(\w+)\.v(\d+)\.json$/.exec(file);
  return named ? [{ file, machine: named[1] as FlowMachineName, version: Number(named[2]) }] : [];
});

function readCorpus(file: string): CorpusEntry[] {
  return JSON.parse(readFileSync(`${corpusDir}${file}`, 'utf8')) as CorpusEntry[];
}

/**
 * Where a flow's journey ends, per machine. The diagnostic and the Mirror have final states
 * (`done` and `graded`; `complete`). The assessment flow has none, since a visitor can always look
 * at their results again; its ends are the three states where the path chosen after the results
 * is over and the only way on is back to those results (VIEW_RESULTS): the deposit paid and the
 * session booked (payment_success.booked), the free resources sent (homework_processing.sent) and
 * the community joined (no_flow.joined). Paid homework ends at payment_success too, and can book a
 * session from there like a deposit.
 */
const isEnd: Record<FlowMachineName, (snapshot: AnyMachineSnapshot) => boolean> = {
  assessmentFlow: (snapshot) =>
    snapshot.matches({ payment_success: 'booked' }) ||
    snapshot.matches({ homework_processing: 'sent' }) ||
    snapshot.matches({ no_flow: 'joined' }),
  diagnostic: (snapshot) => snapshot.status === 'done',
  mirror: (snapshot) => snapshot.status === 'done',
};

/**
 * The events that take a restored snapshot to an end, found breadth first over the walk's events
 * and applied with XState's pure transition, as the engine applies a stored flow's events (a
 * delayed transition is its `xstate.after.…` event, as the server's timers deliver it); null when
 * no end can be reached.
 */
function pathToEnd(name: FlowMachineName, machine: AnyStateMachine, from: AnyMachineSnapshot): EventObject[] | null {
  const walk = corpusWalks[name];
  const seen = new Set([walk.key(from)]);
  let frontier = [{ snapshot: from, events: [] as EventObject[] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { snapshot, events } of frontier) {
      if (isEnd[name](snapshot)) return events;
      for (const event of walk.events(snapshot)) {
        const [after] = transition(machine, snapshot, event);
        const key = walk.key(after);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push({ snapshot: after, events: [...events, event] });
      }
    }
    frontier = next;
  }
  return null;
}

/** Restores a stored snapshot as the engine does, drives it to an end and answers the end snapshot. */
function driveToEnd(name: FlowMachineName, machine: AnyStateMachine, stored: StoredSnapshot): AnyMachineSnapshot {
  const restored = machine.resolveState(stored as never);
  const events = pathToEnd(name, machine, restored);
  expect(events, `no end can be reached from ${statePath(restored.value)}`).not.toBeNull();
  // the path found is replayed on its own, so the end is reached by these events and nothing else
  let snapshot: AnyMachineSnapshot = machine.resolveState(stored as never);
  for (const event of events ?? []) [snapshot] = transition(machine, snapshot, event);
  expect(snapshot.status).not.toBe('error');
  expect(isEnd[name](snapshot), `${statePath(snapshot.value)} is not an end`).toBe(true);
  return snapshot;
}

/**
 * A walk drives hundreds of fixtures to their ends: about 2 s alone on the 2-core box, and several times that while
 * the whole suite shares its cores, so the unit default of 5 s is no measure of it.
 */
const CORPUS_WALK_TIMEOUT = 60_000;

/** The state values a corpus names, as the flows table's `state` column writes them. */
function stateValues(entries: CorpusEntry[]): string[] {
  return [...new Set(entries.map((entry) => statePath(entry.value)))].sort();
}

describe('the stored-snapshot corpus', () => {
  it('holds a file of the current version for every flow machine, and only files of machines and versions this build can run', () => {
    for (const name of names) expect(existsSync(`${corpusDir}${corpusFileName(name)}`), `${corpusFileName(name)} is missing`).toBe(true);
    for (const { file, machine, version } of corpusFiles) {
      expect(names, file).toContain(machine);
      expect(canUpgrade(flowMachineVersions[machine], version), `${file}: this build has no way up from version ${version}`).toBe(true);
    }
  });

  // Someone who changes a machine without bumping its version or regenerating the corpus is told here.
  describe.each(names)('of the current %s', (name) => {
    const machine = flowMachines[name] as AnyStateMachine;
    const stored = readCorpus(corpusFileName(name));
    const fresh = buildCorpus(name);

    it('restores every fixture on the machine as it is now', () => {
      for (const entry of stored) {
        expect(() => machine.resolveState(entry.snapshot as never), `${entry.path}: bump the version with a migration`).not.toThrow();
      }
    });

    it('names exactly the states the machine reaches now', () => {
      expect(stateValues(stored), `${corpusFileName(name)} ${STALE}`).toEqual(stateValues(fresh));
    });

    it('is the corpus the walk writes now, snapshot for snapshot', () => {
      // through JSON, as the file holds it (undefined fields are left out)
      expect(stored, `${corpusFileName(name)} ${STALE}`).toEqual(JSON.parse(JSON.stringify(fresh)));
    });
  });

  describe.each(corpusFiles.map(({ file, machine, version }) => [file, machine, version] as const))(
    'every fixture of %s',
    (file, name, version) => {
      it(
        'restores on this build, through the migrations when older, and reaches an end',
        () => {
          const machine = flowMachines[name] as AnyStateMachine;
          for (const entry of readCorpus(file)) {
            driveToEnd(name, machine, upgradeSnapshot(name, flowMachineVersions[name], version, entry.snapshot, storedFlow));
          }
        },
        CORPUS_WALK_TIMEOUT,
      );
    },
  );
});

// The deliberate change: each machine as a next version would change it, with one state the
// corpus holds renamed and a new context field that the machine sets only for fresh flows.

type Config = Record<string, unknown>;

/** The new context field: set by the changed machine for fresh flows, by the migration for stored ones. */
const LOCALE = 'en-GB';

/** Which state each change renames: one every corpus holds, and no end state, so the ends stay as defined. */
const renames: Record<FlowMachineName, { from: string; to: string }> = {
  // a compound state with a delayed transition inside (its `xstate.after.…` event names it)
  assessmentFlow: { from: 'processing', to: 'scoring' },
  // also compound, with the timed screen's delayed transition inside
  diagnostic: { from: 'vignette', to: 'scenario' },
  mirror: { from: 'awaitingReply', to: 'waitingForReply' },
};

/** A deep copy of a config's plain objects and arrays; functions (inline guards, enqueueActions, params) are shared, as they do not change. */
function cloneConfig<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneConfig) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, cloneConfig(child)])) as T;
  }
  return value;
}

/**
 * Points every transition target at the renamed top-level state: its sibling name, as the
 * top-level states' transitions write it, and its `#id.` path. Only a top-level state is renamed,
 * and its name is one no other state has, so a nested state's sibling target never means it.
 */
function retarget(node: unknown, id: string, from: string, to: string): void {
  const rename = (target: string) => {
    if (target === from) return to;
    for (const prefix of [`#${id}.`, '.']) {
      if (target === `${prefix}${from}` || target.startsWith(`${prefix}${from}.`))
        return `${prefix}${to}${target.slice(prefix.length + from.length)}`;
    }
    return target;
  };
  if (Array.isArray(node)) node.forEach((child) => retarget(child, id, from, to));
  else if (node !== null && typeof node === 'object') {
    const record = node as Config;
    if (typeof record.target === 'string') record.target = rename(record.target);
    else if (Array.isArray(record.target)) record.target = (record.target as string[]).map(rename);
    for (const child of Object.values(record)) retarget(child, id, from, to);
  }
}

/**
 * The next version of a real machine: its config copied, one top-level state renamed and a context
 * field added for fresh flows only (the context factory, or the static context, wrapped), made with
 * createMachine and the real machine's implementations. `machine.provide` cannot do this: it swaps
 * implementations, never states or context.
 */
function nextVersionOf(machine: AnyStateMachine, from: string, to: string): AnyStateMachine {
  const config = cloneConfig(machine.config as unknown as Config);
  const states = config.states as Config;
  expect(Object.keys(states)).toContain(from);
  config.states = Object.fromEntries(Object.entries(states).map(([key, state]) => [key === from ? to : key, state]));
  if (config.initial === from) config.initial = to;
  retarget(config.states, machine.id, from, to);
  const context = config.context;
  config.context =
    typeof context === 'function'
      ? (args: unknown) => ({ ...(context as (args: unknown) => Config)(args), locale: LOCALE })
      : { ...(context as Config), locale: LOCALE };
  return createMachine(config as never, machine.implementations as never);
}

/** The renamed state in a stored state value: the top-level key, or the value itself for a simple state. */
function renameInValue(value: StateValue, from: string, to: string): StateValue {
  if (typeof value === 'string') return value === from ? to : value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key === from ? to : key, child]));
}

/** The real versioning plus the step up to the changed machine: the state renamed in `value`, the new field filled. */
function nextVersioning(name: FlowMachineName): MachineVersioning {
  const { current, migrations } = flowMachineVersions[name];
  const { from, to } = renames[name];
  return {
    current: current + 1,
    migrations: {
      ...migrations,
      // this machine has no history states: a rename would otherwise rewrite `historyValue` too
      [current]: (snapshot) => ({
        ...snapshot,
        value: renameInValue(snapshot.value as StateValue, from, to),
        context: { ...(snapshot.context as Config), locale: LOCALE },
      }),
    },
  };
}

function namesState(value: StateValue, state: string): boolean {
  return typeof value === 'string' ? value === state : state in value;
}

describe.each(names)('a deliberate change to %s: a renamed state and a new context field', (name) => {
  const machine = flowMachines[name] as AnyStateMachine;
  const { from, to } = renames[name];
  const changed = nextVersionOf(machine, from, to);
  const { current } = flowMachineVersions[name];
  const fixtures = readCorpus(corpusFileName(name));
  const naming = fixtures.filter((entry) => namesState(entry.value, from));

  it('the changed machine has the renamed state, and a fresh flow of it has the new field', () => {
    expect(() => changed.getStateNodeById(`${machine.id}.${to}`)).not.toThrow();
    expect(() => changed.getStateNodeById(`${machine.id}.${from}`)).toThrow();
    const [input] = Object.values(corpusWalks[name].starts);
    const actor = createActor(changed, { input }).start();
    expect(actor.getSnapshot().context).toMatchObject({ locale: LOCALE });
    actor.stop();
  });

  it('without the migration, every fixture naming the renamed state fails to restore, and the others lack the new field', () => {
    expect(naming.length).toBeGreaterThan(0);
    for (const entry of naming) {
      expect(() => changed.resolveState(entry.snapshot as never), entry.path).toThrow(new RegExp(`[Ss]tate '${from}' does not exist on`));
    }
    for (const entry of fixtures.filter((fixture) => !naming.includes(fixture))) {
      expect(changed.resolveState(entry.snapshot as never).context.locale, entry.path).toBeUndefined();
    }
  });

  // One test per stored version: each walks a whole file of fixtures to their ends, work that grows with every version.
  it.each(corpusFiles.filter((corpus) => corpus.machine === name))(
    'with the migration, every fixture of $file restores on the changed machine and reaches an end with the new field',
    ({ file, version }) => {
      const versioning = nextVersioning(name);
      for (const entry of readCorpus(file)) {
        const upgraded = upgradeSnapshot(name, versioning, version, entry.snapshot, storedFlow);
        if (version === current && namesState(entry.value, from)) {
          expect(statePath(upgraded.value)).toBe(statePath(renameInValue(entry.value, from, to)));
        }
        const end = driveToEnd(name, changed, upgraded);
        expect(end.context.locale, `${file}: ${entry.path}`).toBe(LOCALE);
      }
    },
    CORPUS_WALK_TIMEOUT,
  );
});
