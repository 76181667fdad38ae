import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { STEP_TITLES, stepTitle, topStep } from './titles.js';

describe('step titles', () => {
  it('has a title for every top-level state of the assessment flow', () => {
    const states = Object.keys(assessmentFlowMachine.root.states);
    expect(states.filter((state) => !STEP_TITLES[state])).toEqual([]);
  });

  it("agrees with the machine's own meta titles and the spec's table", () => {
    for (const node of Object.values(assessmentFlowMachine.root.states)) {
      const title = (node.meta as { title?: string } | undefined)?.title;
      if (title) expect(STEP_TITLES[node.key]).toBe(title);
    }
    expect([
      STEP_TITLES.capture,
      STEP_TITLES.intro,
      STEP_TITLES.diagnostic,
      STEP_TITLES.survey,
      STEP_TITLES.results,
      STEP_TITLES.mirror,
    ]).toEqual(['Welcome', 'Assessment Overview', 'Leadership Diagnostic', 'Qualification Survey', 'Your Results', 'Decision Mirror']);
  });

  it('reads the title of a nested state from its top-level step', () => {
    const actor = createActor(assessmentFlowMachine, { input: {} }).start();
    expect(stepTitle(actor.getSnapshot())).toBe('Welcome');
    actor.send({ type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' });
    expect(topStep(actor.getSnapshot().value)).toBe('capture');
    expect(stepTitle(actor.getSnapshot())).toBe('Welcome');
    const stored = createActor(assessmentFlowMachine, { input: { storedResult: resultFor('homework') } }).start();
    expect(stepTitle(stored.getSnapshot())).toBe('Welcome Back');
  });

  it('says the resources are on their way once they are sent, not still sending', () => {
    const stored = createActor(assessmentFlowMachine, { input: { storedResult: resultFor('homework'), knownSession: null } }).start();
    stored.send({ type: 'CONTINUE' });
    stored.send({ type: 'CHOOSE_FREE_RESOURCES' });
    expect(stepTitle(stored.getSnapshot())).toBe('Sending Your Resources');
    stored.send({ type: 'HOMEWORK_SENT' });
    expect(stored.getSnapshot().value).toEqual({ homework_processing: 'sent' });
    expect(stepTitle(stored.getSnapshot())).toBe('Your Resources Are on Their Way');
  });
});
