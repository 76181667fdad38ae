import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { flowEffects, flowMachines } from '#machines/index.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { corpusWalks } from '#machines/snapshot-corpus/paths.js';
import { serverEffectOf } from './effects.js';

/**
 * Every action the server's transitions return for a machine: a breadth-first walk over the states
 * the stored-snapshot corpus walks (its starts, the events it tries in a state and its key for
 * telling states apart), taking each event with XState's pure transition(), as the engine does.
 */
function actionTypesOf(name: FlowMachineName): Set<string> {
  const walk = corpusWalks[name];
  const machine = flowMachines[name] as AnyStateMachine;
  const types = new Set<string>();
  // a walk per start, as the corpus walks them: the keys need not tell starts apart
  for (const input of Object.values(walk.starts)) {
    const seen = new Set<string>();
    const queue: AnyMachineSnapshot[] = [];
    const visit = ([snapshot, actions]: [AnyMachineSnapshot, readonly { type: string }[]]) => {
      for (const action of actions) types.add(action.type);
      if (seen.has(walk.key(snapshot))) return;
      seen.add(walk.key(snapshot));
      queue.push(snapshot);
    };
    visit(initialTransition(machine, input));
    // the queue grows as the walk finds states
    for (const snapshot of queue) {
      for (const event of walk.events(snapshot)) visit(transition(machine, snapshot, event));
    }
  }
  return types;
}

describe('the server side of the flow machines’ actions', () => {
  // the assessment flow's walk takes seconds
  it.each(Object.keys(flowMachines) as FlowMachineName[])('covers every action %s returns in every state', { timeout: 60_000 }, (name) => {
    const types = actionTypesOf(name);
    // no action the server would refuse (serverEffectOf throws for those)
    expect([...types].filter((type) => !tryServerEffect(name, type))).toEqual([]);
    // and the walk reaches every declared effect, so the declarations hold none the machine never names
    expect(Object.keys(flowEffects[name]).filter((declared) => !types.has(declared))).toEqual([]);
  });

  it('leaves browser effects and cancelled delays to no one, and performs server effects and delayed raises', () => {
    expect(serverEffectOf('assessmentFlow', 'clearSavedAnswers')).toBeNull();
    expect(serverEffectOf('diagnostic', 'answerRecorded')).toBeNull();
    expect(serverEffectOf('mirror', 'xstate.cancel')).toBeNull();
    expect(serverEffectOf('assessmentFlow', 'createLead')).toBeTypeOf('function');
    expect(serverEffectOf('mirror', 'xstate.raise')).toBeTypeOf('function');
  });

  it('refuses an action it does not know: another machine’s effect, an XState action it cannot perform, a prototype’s key', () => {
    expect(() => serverEffectOf('mirror', 'createLead')).toThrow('mirror machine named the action createLead');
    expect(() => serverEffectOf('diagnostic', 'xstate.sendTo')).toThrow('xstate.sendTo');
    expect(() => serverEffectOf('assessmentFlow', 'toString')).toThrow('toString');
  });
});

function tryServerEffect(machine: FlowMachineName, type: string): boolean {
  try {
    serverEffectOf(machine, type);
    return true;
  } catch {
    return false;
  }
}
