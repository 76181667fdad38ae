import { createActor, initialTransition, SimulatedClock, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import { diagnosticScreens, timedQuestions } from '../content/index.js';
import type { Screen } from '../content/diagnostic-bank.js';
import { canAccept } from '../protocol/can-accept.js';
import type { RecordedAnswer } from '../protocol/common.js';
import { diagnosticClientEventSchema, type DiagnosticEvent } from '../protocol/diagnostic.js';
import { elapse, smallScreens } from './diagnostic.fixtures.js';
import { diagnosticMachine } from './diagnostic.machine.js';
import { diagnosticProgress, firstTimedIndex, screenTimeoutMs, timeLimitSec, timeoutAnswer } from './diagnostic.screens.js';
import { TIMED_GRACE_MS } from './response-time.js';

function start(screens: Screen[]) {
  const clock = new SimulatedClock();
  const recorded: { itemId: string; answer: RecordedAnswer }[] = [];
  const machine = diagnosticMachine.provide({
    actions: { answerRecorded: (_, answer) => void recorded.push(answer) },
  });
  const actor = createActor(machine, { input: { screens }, clock }).start();
  return { actor, clock, recorded, machine };
}

describe('diagnostic', () => {
  it('shows progress n of the real screen count, starting at 1', () => {
    const { actor } = start(diagnosticScreens);
    expect(diagnosticProgress(actor.getSnapshot().context)).toEqual({ current: 1, total: diagnosticScreens.length });
    actor.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 3200 });
    expect(diagnosticProgress(actor.getSnapshot().context)).toEqual({ current: 2, total: diagnosticScreens.length });
  });

  it('records a likert answer with value, type, response time and timedOut false', () => {
    const { actor, recorded } = start(smallScreens);
    expect(actor.getSnapshot().value).toBe('likert');
    actor.send({ type: 'ANSWER_LIKERT', value: 5, responseTime: 2100 });
    const answer = { type: 'likert', value: 5, responseTime: 2100, timedOut: false };
    expect(actor.getSnapshot().context.answers).toEqual({ l1: answer });
    expect(recorded).toEqual([{ itemId: 'l1', answer }]);
  });

  it('starts the ranking in default order and confirms only when every item is placed', () => {
    const { actor, machine } = start(smallScreens);
    actor.send({ type: 'ANSWER_LIKERT', value: 1, responseTime: 1 });
    actor.send({ type: 'ANSWER_LIKERT', value: 2, responseTime: 1 });
    expect(actor.getSnapshot()).toMatchObject({ value: 'ranking', context: { ranking: ['r_a', 'r_b', 'r_c'] } });

    actor.send({ type: 'REORDER_RANKING', order: ['r_c', 'r_a'] });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'CONFIRM_RANKING', responseTime: 10 })).toBe(false);
    for (const order of [['r_c', 'r_c'], ['r_x'], ['r_a', 'r_b', 'r_c', 'r_a']]) {
      expect(canAccept(machine, actor.getSnapshot(), { type: 'REORDER_RANKING', order })).toBe(false);
    }

    actor.send({ type: 'REORDER_RANKING', order: ['r_c', 'r_a', 'r_b'] });
    actor.send({ type: 'CONFIRM_RANKING', responseTime: 9000 });
    expect(actor.getSnapshot().context.answers['rank']).toEqual({
      type: 'ranking',
      value: ['r_c', 'r_a', 'r_b'],
      responseTime: 9000,
      timedOut: false,
    });
  });

  it("shows 'Timed Questions Ahead' before the first timed screen of the real bank", () => {
    const { actor } = start(diagnosticScreens);
    const firstTimed = timedQuestions!.firstIndex;
    expect(firstTimedIndex(diagnosticScreens)).toBe(firstTimed);
    for (const screen of diagnosticScreens.slice(0, firstTimed)) {
      if (screen.type === 'likert') actor.send({ type: 'ANSWER_LIKERT', value: 3, responseTime: 4000 });
      else actor.send({ type: 'CONFIRM_RANKING', responseTime: 4000 });
    }
    expect(actor.getSnapshot()).toMatchObject({ value: 'interstitial', context: { index: firstTimed } });
    actor.send({ type: 'START_TIMED' });
    expect(actor.getSnapshot()).toMatchObject({ value: { vignette: 'choosing' }, context: { index: firstTimed } });
  });

  it("auto-answers the first option, marked timedOut, when a timed screen's timer fires", () => {
    const { actor, clock, recorded } = start(smallScreens.slice(3));
    expect(actor.getSnapshot().value).toBe('interstitial');
    elapse(clock, 60_000);
    expect(actor.getSnapshot().value).toBe('interstitial');
    actor.send({ type: 'START_TIMED' });
    const [plain] = smallScreens.slice(3);
    elapse(clock, screenTimeoutMs(plain!) - 1, 1);
    expect(actor.getSnapshot().context.index).toBe(0);
    clock.increment(1);
    expect(recorded).toEqual([{ itemId: 'v_plain', answer: { type: 'vignette', value: 'p_first', responseTime: 5000, timedOut: true } }]);
    expect(actor.getSnapshot()).toMatchObject({ value: { vignette: 'choosing' }, context: { index: 1 } });
  });

  it('asks confidence after a vignette option and stops the clock for it', () => {
    const { actor, clock, machine } = start(smallScreens.slice(4));
    actor.send({ type: 'START_TIMED' });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SELECT_OPTION', optionId: 'p_first', responseTime: 1 })).toBe(false);
    actor.send({ type: 'SELECT_OPTION', optionId: 'f_second', responseTime: 1800 });
    expect(actor.getSnapshot().value).toEqual({ vignette: 'confidence' });
    elapse(clock, 60_000);
    expect(actor.getSnapshot().value).toEqual({ vignette: 'confidence' });
    actor.send({ type: 'SELECT_CONFIDENCE', value: 4 });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({
      v_follow: { type: 'vignette', value: 'f_second', responseTime: 1800, confidence: 4, timedOut: false },
    });
  });

  it('records a vignette without a follow-up straight away', () => {
    const { actor } = start(smallScreens.slice(3, 4));
    actor.send({ type: 'START_TIMED' });
    actor.send({ type: 'SELECT_OPTION', optionId: 'p_second', responseTime: 700 });
    expect(actor.getSnapshot().output).toEqual({
      v_plain: { type: 'vignette', value: 'p_second', responseTime: 700, timedOut: false },
    });
  });

  it('finishes after the last answer of the real bank with one answer per screen', () => {
    const { actor, clock } = start(diagnosticScreens);
    for (const screen of diagnosticScreens) {
      if (actor.getSnapshot().matches('interstitial')) actor.send({ type: 'START_TIMED' });
      if (screen.type === 'likert') actor.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 3000 });
      if (screen.type === 'ranking') actor.send({ type: 'CONFIRM_RANKING', responseTime: 3000 });
      if (screen.type === 'vignette') elapse(clock, screenTimeoutMs(screen));
    }
    const snapshot = actor.getSnapshot();
    expect(snapshot.status).toBe('done');
    expect(Object.keys(snapshot.output ?? {})).toEqual(diagnosticScreens.map((s) => s.id));
    expect(diagnosticProgress(snapshot.context)).toEqual({
      current: diagnosticScreens.length,
      total: diagnosticScreens.length,
    });
  });

  it('leaves its state unchanged for an answer of the wrong kind', () => {
    const { actor, machine } = start(smallScreens);
    const likert = actor.getSnapshot();
    expect(canAccept(machine, likert, { type: 'SELECT_CONFIDENCE', value: 3 })).toBe(false);
    expect(canAccept(machine, likert, { type: 'CONFIRM_RANKING', responseTime: 1 })).toBe(false);
    expect(canAccept(machine, likert, { type: 'START_TIMED' })).toBe(false);
  });

  it('gives the spec timeout answers for every screen type', () => {
    const [likert, , ranking, vignette] = smallScreens;
    expect(timeoutAnswer(likert!, [])).toMatchObject({ type: 'likert', value: 3, timedOut: true });
    expect(timeoutAnswer(vignette!, [])).toEqual({ type: 'vignette', value: 'p_first', responseTime: 5000, timedOut: true });
    expect(timeoutAnswer(ranking!, ['r_b'])).toMatchObject({ value: ['r_b', 'r_a', 'r_c'], timedOut: true });
  });

  it('validates events at the edge, and takes neither GRADED nor a clock event from a browser', () => {
    expect(diagnosticClientEventSchema.safeParse({ type: 'ANSWER_LIKERT', value: 6, responseTime: 1 }).success).toBe(false);
    expect(diagnosticClientEventSchema.safeParse({ type: 'SELECT_CONFIDENCE', value: 0 }).success).toBe(false);
    expect(diagnosticClientEventSchema.safeParse({ type: 'GRADED', result: { archetype: 'A', narrative: '', scores: {} } }).success).toBe(
      false,
    );
    expect(diagnosticClientEventSchema.safeParse({ type: 'TIME_UP' }).success).toBe(false);
    // a browser's own `at` is dropped at the edge (and the server overwrites it anyway)
    expect(diagnosticClientEventSchema.parse({ type: 'ANSWER_LIKERT', value: 1, responseTime: 1, at: 0 })).toEqual({
      type: 'ANSWER_LIKERT',
      value: 1,
      responseTime: 1,
    });
  });
});

/** The diagnostic as the server runs it: pure transitions, every event stamped with the server's clock (`at`). */
function onServer(screens: Screen[], startedAt: number, standalone = false) {
  let [snapshot, actions] = initialTransition(diagnosticMachine, { screens, startedAt, standalone });
  return {
    send(event: DiagnosticEvent | { type: string; at: number }) {
      [snapshot, actions] = transition(diagnosticMachine, snapshot, event as DiagnosticEvent);
      return { snapshot, actions };
    },
    get snapshot() {
      return snapshot;
    },
    get actions() {
      return actions;
    },
  };
}

const TIMER = 'xstate.after.screenTimeout.diagnostic.vignette.choosing';
const [plain, follow] = smallScreens.slice(3) as Array<Extract<Screen, { type: 'vignette' }>>;
const deadlineOf = (screen: Screen) => (timeLimitSec(screen) ?? 0) * 1000 + TIMED_GRACE_MS;

describe('diagnostic timing on the server clock', () => {
  it('times the first screen from the start and each later one from the event that showed it', () => {
    const flow = onServer(smallScreens, 1_000_000);
    expect(flow.snapshot.context.shownAt).toBe(1_000_000);
    flow.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 4000, at: 1_004_100 });
    expect(flow.snapshot.context).toMatchObject({ index: 1, shownAt: 1_004_100 });
    expect(flow.snapshot.context.answers['l1']).toMatchObject({ responseTime: 4000 });
  });

  it("schedules a timed screen's timer for its limit plus the grace (and a little slack)", () => {
    const flow = onServer(smallScreens.slice(3), 0);
    const { actions } = flow.send({ type: 'START_TIMED', at: 10_000 });
    const raise = actions.find((action) => action.type === 'xstate.raise');
    expect(raise?.params).toMatchObject({ event: { type: TIMER }, delay: screenTimeoutMs(plain!) });
    expect(screenTimeoutMs(plain!)).toBeGreaterThan(deadlineOf(plain!));
    expect(flow.snapshot.context.shownAt).toBe(10_000);
  });

  it('keeps an answer that arrives inside the network grace', () => {
    const flow = onServer(smallScreens.slice(3), 0);
    flow.send({ type: 'START_TIMED', at: 10_000 });
    flow.send({ type: 'SELECT_OPTION', optionId: 'p_second', responseTime: 5000, at: 10_000 + deadlineOf(plain!) });
    expect(flow.snapshot.context.answers['v_plain']).toEqual({ type: 'vignette', value: 'p_second', responseTime: 5000, timedOut: false });
  });

  it('records an answer that arrives after the limit plus grace as the timeout answer, without a confidence question', () => {
    const flow = onServer(smallScreens.slice(4), 0);
    flow.send({ type: 'START_TIMED', at: 10_000 });
    const { actions } = flow.send({
      type: 'SELECT_OPTION',
      optionId: 'f_second',
      responseTime: 1000,
      at: 10_000 + deadlineOf(follow!) + 1,
    });
    expect(flow.snapshot.context.answers['v_follow']).toEqual({ type: 'vignette', value: 'f_first', responseTime: 3000, timedOut: true });
    expect(flow.snapshot.value).toBe('done');
    expect(actions.some((action) => action.type === 'answerRecorded')).toBe(true);
  });

  it("records the timeout answer when the screen's own timer arrives", () => {
    const flow = onServer(smallScreens.slice(3), 0);
    flow.send({ type: 'START_TIMED', at: 10_000 });
    flow.send({ type: TIMER, at: 10_000 + screenTimeoutMs(plain!) });
    expect(flow.snapshot.context).toMatchObject({ index: 1, shownAt: 10_000 + screenTimeoutMs(plain!) });
    expect(flow.snapshot.context.answers['v_plain']).toMatchObject({ value: 'p_first', timedOut: true });
  });

  it('ignores a timer left over from an earlier screen: the next screen keeps its own deadline', () => {
    const flow = onServer(smallScreens.slice(3), 0);
    flow.send({ type: 'START_TIMED', at: 10_000 });
    // answered after 4 s: the next vignette is shown then, and the first one's timer is still queued
    flow.send({ type: 'SELECT_OPTION', optionId: 'p_second', responseTime: 4000, at: 14_000 });
    const before = flow.snapshot;
    const stale = flow.send({ type: TIMER, at: 10_000 + screenTimeoutMs(plain!) });
    expect(stale.snapshot).toBe(before);
    expect(stale.actions).toEqual([]);
    // its own timer, later, does answer it
    flow.send({ type: TIMER, at: 14_000 + screenTimeoutMs(follow!) });
    expect(flow.snapshot.context.answers['v_follow']).toMatchObject({ value: 'f_first', timedOut: true });
  });

  it('ignores a timer that arrives once the option is chosen and the confidence question is on show', () => {
    const flow = onServer(smallScreens.slice(4), 0);
    flow.send({ type: 'START_TIMED', at: 0 });
    flow.send({ type: 'SELECT_OPTION', optionId: 'f_second', responseTime: 1000, at: 1000 });
    const before = flow.snapshot;
    expect(flow.send({ type: TIMER, at: screenTimeoutMs(follow!) }).snapshot).toBe(before);
  });

  it("replaces an implausible response time by the server's measure and keeps a plausible one", () => {
    const flow = onServer(smallScreens, 0);
    // claims 6 s, the server saw 300 ms: rushing, whatever the browser said
    flow.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 6000, at: 300 });
    // claims 500 ms, the server saw 40 s
    flow.send({ type: 'ANSWER_LIKERT', value: 2, responseTime: 500, at: 40_300 });
    // claims 3.9 s of the 4.4 s the server saw (round trips): kept
    flow.send({ type: 'CONFIRM_RANKING', responseTime: 3900, at: 44_700 });
    const { answers } = flow.snapshot.context;
    expect([answers['l1']?.responseTime, answers['l2']?.responseTime, answers['rank']?.responseTime]).toEqual([300, 40_000, 3900]);
  });

  it('takes the claimed response time for an event without the server stamp (the browser copy)', () => {
    const flow = onServer(smallScreens, 0);
    flow.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 6000 });
    expect(flow.snapshot.context).toMatchObject({ shownAt: null, answers: { l1: { responseTime: 6000 } } });
  });
});

describe('the standalone diagnostic', () => {
  const result = { archetype: 'Reluctant Steward', narrative: 'You hold on.', scores: { LER: 61 } };

  function answerAll(flow: ReturnType<typeof onServer>) {
    flow.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 3000, at: 3000 });
    flow.send({ type: 'ANSWER_LIKERT', value: 2, responseTime: 3000, at: 6000 });
    flow.send({ type: 'CONFIRM_RANKING', responseTime: 3000, at: 9000 });
    flow.send({ type: 'START_TIMED', at: 10_000 });
    flow.send({ type: 'SELECT_OPTION', optionId: 'p_second', responseTime: 2000, at: 12_000 });
    flow.send({ type: 'SELECT_OPTION', optionId: 'f_first', responseTime: 2000, at: 14_000 });
    return flow.send({ type: 'SELECT_CONFIDENCE', value: 5, at: 15_000 });
  }

  it('asks the server to grade the answers after the last one, and ends graded with the result', () => {
    const flow = onServer(smallScreens, 0, true);
    const { snapshot, actions } = answerAll(flow);
    expect(snapshot.value).toBe('grading');
    expect(snapshot.status).toBe('active');
    const request = actions.find((action) => action.type === 'requestGrading');
    expect(request?.params).toEqual({ answers: snapshot.context.answers });
    expect(Object.keys(snapshot.context.answers)).toEqual(smallScreens.map((s) => s.id));

    expect(canAccept(diagnosticMachine, snapshot, { type: 'ANSWER_LIKERT', value: 3, responseTime: 1 })).toBe(false);
    flow.send({ type: 'GRADED', result, at: 16_000 });
    expect(flow.snapshot).toMatchObject({ value: 'graded', status: 'done', context: { result } });
  });

  it("the modal's diagnostic ends done without grading, and takes no GRADED at any point", () => {
    const flow = onServer(smallScreens, 0);
    expect(canAccept(diagnosticMachine, flow.snapshot, { type: 'GRADED', result })).toBe(false);
    const { snapshot, actions } = answerAll(flow);
    expect(snapshot.value).toBe('done');
    expect(actions.some((action) => action.type === 'requestGrading')).toBe(false);
    expect(canAccept(diagnosticMachine, snapshot, { type: 'GRADED', result })).toBe(false);
  });
});
