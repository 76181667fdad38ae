import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { diagnosticScreens, timedQuestions } from '../content/index.js';
import type { Screen } from '../content/schemas.js';
import { canAccept } from '../protocol/can-accept.js';
import type { RecordedAnswer } from '../protocol/common.js';
import { diagnosticEventSchema } from '../protocol/diagnostic.js';
import { elapse, smallScreens } from './diagnostic.fixtures.js';
import { diagnosticMachine, diagnosticProgress, firstTimedIndex, timeoutAnswer } from './diagnostic.machine.js';

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
    const first = diagnosticScreens[firstTimed]!;
    expect(actor.getSnapshot()).toMatchObject({
      value: { vignette: 'choosing' },
      context: { secondsLeft: first.type === 'vignette' ? first.timeLimitSec : -1 },
    });
  });

  it('counts down each second and auto-answers the first option on timeout, marked timedOut', () => {
    const { actor, clock, recorded } = start(smallScreens.slice(3));
    expect(actor.getSnapshot().value).toBe('interstitial');
    elapse(clock, 10_000);
    expect(actor.getSnapshot().value).toBe('interstitial');
    actor.send({ type: 'START_TIMED' });
    elapse(clock, 1000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(4);
    elapse(clock, 3999, 1);
    expect(actor.getSnapshot().context).toMatchObject({ index: 0, secondsLeft: 1 });
    clock.increment(1);
    expect(recorded).toEqual([
      { itemId: 'v_plain', answer: { type: 'vignette', value: 'p_first', responseTime: 5000, timedOut: true } },
    ]);
    expect(actor.getSnapshot()).toMatchObject({ value: { vignette: 'choosing' }, context: { secondsLeft: 3 } });
  });

  it('asks confidence after a vignette option and stops the clock for it', () => {
    const { actor, clock, machine } = start(smallScreens.slice(4));
    actor.send({ type: 'START_TIMED' });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SELECT_OPTION', optionId: 'p_first', responseTime: 1 })).toBe(
      false,
    );
    actor.send({ type: 'SELECT_OPTION', optionId: 'f_second', responseTime: 1800 });
    expect(actor.getSnapshot()).toMatchObject({ value: { vignette: 'confidence' }, context: { secondsLeft: null } });
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
      if (screen.type === 'vignette') elapse(clock, screen.timeLimitSec * 1000);
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

  it('validates events at the edge', () => {
    expect(diagnosticEventSchema.safeParse({ type: 'ANSWER_LIKERT', value: 6, responseTime: 1 }).success).toBe(false);
    expect(diagnosticEventSchema.safeParse({ type: 'SELECT_CONFIDENCE', value: 0 }).success).toBe(false);
    expect(diagnosticEventSchema.safeParse({ type: 'ANSWER_LIKERT', value: 1, responseTime: 1 }).success).toBe(true);
  });
});
