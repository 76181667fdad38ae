import { getShortestPaths, getStateNodes } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import type { AssessmentFlowInput } from '../protocol/assessment-flow.js';
// the walk's events, key and openings are shared with the stored-snapshot corpus
import {
  assessmentFlowEvents as eventsFor,
  assessmentFlowKey as serializeState,
  assessmentFlowOpenings as openings,
} from '../snapshot-corpus/paths.js';
import { startFlow } from './assessment-flow.fixtures.js';
import { assessmentFlowMachine } from './assessment-flow.machine.js';
import { childFlowSteps } from './child-flow-slot.js';

function pathsFrom(input: AssessmentFlowInput) {
  return getShortestPaths(assessmentFlowMachine, { input, events: eventsFor, serializeState });
}

/** The product's table of modal steps with the titles it gives. */
const specSteps: Record<string, string | null> = {
  capture: 'Welcome',
  intro: 'Assessment Overview',
  diagnostic: 'Leadership Diagnostic',
  survey: 'Qualification Survey',
  processing: null,
  gaming_detected: null,
  results: 'Your Results',
  yes_flow: null,
  payment_success: null,
  maybe_flow: null,
  no_flow: null,
  email_capture: null,
  mirror: 'Decision Mirror',
  homework_processing: null,
  completed_results: null,
};

describe('assessmentFlow model', () => {
  it("has every step of the spec's table, titled as the table titles it", () => {
    expect(Object.keys(specSteps)).toHaveLength(15);
    for (const [step, title] of Object.entries(specSteps)) {
      const node = assessmentFlowMachine.getStateNodeById(`assessmentFlow.${step}`);
      expect(node.meta?.title ?? null, step).toBe(title);
    }
  });

  it('reaches every state that is not a transient decision', () => {
    const reached = new Set<string>();
    for (const input of Object.values(openings)) {
      for (const path of pathsFrom(input)) {
        for (const node of path.state._nodes) reached.add(node.id);
      }
    }
    const resting = getStateNodes(assessmentFlowMachine.root)
      .filter((node) => !node.always?.length)
      .map((node) => node.id);
    expect(resting.filter((id) => !reached.has(id))).toEqual([]);
  });

  describe.each(Object.entries(openings))('opened %s', (_, input) => {
    const paths = pathsFrom(input);

    const named = paths.map((path) => {
      const events = path.steps.map((step): string => step.event.type).filter((type) => type !== 'xstate.init');
      return [events.join(' > ') || '(opening)', path] as const;
    });
    it.each(named)('%s', (_, path) => {
      const { actor } = startFlow(input);
      const inChildStep = () => childFlowSteps.find((step) => actor.getSnapshot().matches(step));
      let entries = inChildStep() ? 1 : 0;
      for (const { event } of path.steps) {
        if ((event.type as string) === 'xstate.init') continue;
        const before = inChildStep();
        actor.send(event);
        if (inChildStep() && inChildStep() !== before) entries += 1;
      }
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      // The walk keeps one snapshot per key, the last it met, and the key leaves out the visit count
      // (each retake would otherwise be a new state): the replay counts this path's own entries.
      const replayed = actor.getSnapshot().context;
      expect(replayed.childFlowVisit).toBe(entries);
      expect(replayed).toEqual({ ...path.state.context, childFlowVisit: entries });
    });
  });
});
