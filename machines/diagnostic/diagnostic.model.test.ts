import { createActor, SimulatedClock } from 'xstate';
import { getShortestPaths, getStateNodes } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import { diagnosticScreens } from '../content/index.js';
import type { Screen } from '../content/diagnostic-bank.js';
// the walk's events and key are shared with the stored-snapshot corpus
import { diagnosticEvents as eventsFor, diagnosticKey as serializeState } from '../snapshot-corpus/paths.js';
import { elapse, smallScreens } from './diagnostic.fixtures.js';
import { diagnosticMachine } from './diagnostic.machine.js';
import { screenTimeoutMs } from './diagnostic.screens.js';

/** The modal's diagnostic, or the standalone one that the server grades. */
type Mode = 'modal' | 'standalone';

function pathsFor(screens: Screen[], mode: Mode) {
  return getShortestPaths(diagnosticMachine, { input: { screens, standalone: mode === 'standalone' }, events: eventsFor, serializeState });
}

function replay(screens: Screen[], mode: Mode, path: ReturnType<typeof pathsFor>[number]) {
  const clock = new SimulatedClock();
  const actor = createActor(diagnosticMachine, { input: { screens, standalone: mode === 'standalone' }, clock }).start();
  for (const { event } of path.steps) {
    const type: string = event.type;
    // A timed screen's timer is a real delay on the clock, not an event sent from outside.
    if (type.startsWith('xstate.after.')) {
      const { context } = actor.getSnapshot();
      elapse(clock, screenTimeoutMs(context.screens[context.index]!));
    } else if (type !== 'xstate.init') actor.send(event);
  }
  return actor.getSnapshot();
}

const banks = { 'a small bank': smallScreens, 'the real bank': diagnosticScreens };

describe('diagnostic model', () => {
  it.each(Object.entries(banks))('reaches every resting state with %s, as the modal and standalone', (_, screens) => {
    const paths = [...pathsFor(screens, 'modal'), ...pathsFor(screens, 'standalone')];
    const reached = new Set(paths.flatMap((path) => path.state._nodes.map((node) => node.id)));
    const resting = getStateNodes(diagnosticMachine.root)
      .filter((node) => !node.always?.length)
      .map((node) => node.id);
    expect(resting.filter((id) => !reached.has(id))).toEqual([]);
  });

  describe.each(['modal', 'standalone'] as const)('with a small bank, as the %s, every shortest path', (mode) => {
    const paths = pathsFor(smallScreens, mode);
    const named = paths.map((path) => {
      const events = path.steps.map((step): string => step.event.type).filter((type) => type !== 'xstate.init');
      return [`${events.length} steps to ${JSON.stringify(path.state.value)} at ${path.state.context.index}`, path] as const;
    });
    it.each(named)('%s', (_, path) => {
      const snapshot = replay(smallScreens, mode, path);
      expect(serializeState(snapshot)).toBe(serializeState(path.state));
      expect(snapshot.status).toBe(path.state.status);
      expect(Object.keys(snapshot.context.answers)).toEqual(smallScreens.slice(0, snapshot.context.index).map((s) => s.id));
    });
  });

  it.each(['modal', 'standalone'] as const)('with the real bank, as the %s, every shortest path ends where the model says', (mode) => {
    const paths = pathsFor(diagnosticScreens, mode);
    for (const path of paths) {
      const snapshot = replay(diagnosticScreens, mode, path);
      expect(serializeState(snapshot)).toBe(serializeState(path.state));
      expect(Object.keys(snapshot.context.answers)).toHaveLength(snapshot.context.index);
    }
    expect(paths.some((path) => path.state.status === 'done')).toBe(true);
  });
});
