import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { resultFor } from '../assessment-flow/assessment-flow.fixtures.js';
import type { FlowResult } from '../protocol/assessment-flow.js';
import { localFallbackMachine, OFFLINE_GRACE_MS, PROCESSING_WINDOW_MS } from './local-fallback.machine.js';

const localResult: FlowResult = { ...resultFor('homework'), fallback: true };

/** The policy on a simulated clock, its local grading answered by hand and what it shows recorded. */
function start() {
  const clock = new SimulatedClock();
  const shown: FlowResult[] = [];
  let grade: (result: FlowResult) => void = () => {};
  let fail: (error: Error) => void = () => {};
  let gradings = 0;
  const machine = localFallbackMachine.provide({
    actors: {
      gradeLocally: fromPromise<FlowResult>(
        () =>
          new Promise<FlowResult>((resolve, reject) => {
            gradings += 1;
            grade = resolve;
            fail = reject;
          }),
      ),
    },
    actions: { showLocalResult: (_, { result }) => shown.push(result) },
  });
  const actor = createActor(machine, { clock }).start();
  const flow = (grading: boolean, offline = false) => actor.send({ type: 'FLOW_CHANGED', grading, offline });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { actor, clock, shown, flow, settle, grade: (r: FlowResult) => grade(r), fail: (e: Error) => fail(e), gradings: () => gradings };
}

describe('localFallback', () => {
  it('waits the processing window at grading, then grades in the browser and shows that result', async () => {
    const { actor, clock, shown, flow, settle, grade, gradings } = start();
    flow(true);
    expect(actor.getSnapshot().value).toEqual({ waiting: 'online' });
    clock.increment(PROCESSING_WINDOW_MS - 1);
    expect(gradings()).toBe(0);
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('grading');
    expect(gradings()).toBe(1);
    grade(localResult);
    await settle();
    expect(shown).toEqual([localResult]);
    expect(actor.getSnapshot().value).toBe('shown');
    // the local copy moved on to its results
    flow(false);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('grades after OFFLINE_GRACE_MS when the survey cannot reach the server', async () => {
    const { actor, clock, shown, flow, settle, grade } = start();
    flow(true, true);
    expect(actor.getSnapshot().value).toEqual({ waiting: 'offline' });
    clock.increment(OFFLINE_GRACE_MS - 1);
    expect(actor.getSnapshot().value).toEqual({ waiting: 'offline' });
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('grading');
    grade(localResult);
    await settle();
    expect(shown).toEqual([localResult]);
  });

  it('the grace starts again when the connection comes back and drops again; the window does not', () => {
    const { actor, clock, flow } = start();
    flow(true);
    clock.increment(5000);
    flow(true, true);
    clock.increment(OFFLINE_GRACE_MS - 1000);
    flow(true, false);
    expect(actor.getSnapshot().value).toEqual({ waiting: 'online' });
    flow(true, true);
    // a repeated report of the same state keeps the running grace
    clock.increment(OFFLINE_GRACE_MS - 1000);
    flow(true, true);
    clock.increment(999);
    expect(actor.getSnapshot().value).toEqual({ waiting: 'offline' });
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('grading');
  });

  it("stands down when the server's result arrives first, before or during local grading", async () => {
    const { actor, clock, shown, flow, settle, grade } = start();
    flow(true, true);
    clock.increment(OFFLINE_GRACE_MS - 1);
    flow(false);
    expect(actor.getSnapshot().value).toBe('idle');
    clock.increment(PROCESSING_WINDOW_MS);
    expect(actor.getSnapshot().value).toBe('idle');

    flow(true);
    clock.increment(PROCESSING_WINDOW_MS);
    expect(actor.getSnapshot().value).toBe('grading');
    flow(false);
    grade(localResult);
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(shown).toEqual([]);
  });

  it('a local grading that fails shows nothing', async () => {
    const { actor, clock, shown, flow, settle, fail } = start();
    flow(true);
    clock.increment(PROCESSING_WINDOW_MS);
    fail(new Error('no grading engine'));
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(shown).toEqual([]);
  });

  it('ignores reports while nothing waits for grading', () => {
    const { actor, clock, flow, gradings } = start();
    flow(false, true);
    clock.increment(PROCESSING_WINDOW_MS * 2);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(gradings()).toBe(0);
  });
});
