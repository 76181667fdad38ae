import { and, assign, setup } from 'xstate';
import type { Screen } from '../content/schemas.js';
import type { DiagnosticAnswers, RecordedAnswer } from '../protocol/common.js';
import type { DiagnosticEvent } from '../protocol/diagnostic.js';

/** The likert value a question gets when its countdown runs out (spec section 9). */
export const LIKERT_TIMEOUT_VALUE = 3;

/** What the diagnostic machine starts from: the bank's screens in order (content's flattenBank). */
export interface DiagnosticInput {
  screens: Screen[];
}

/** What one diagnostic run holds. */
export interface DiagnosticContext {
  screens: Screen[];
  /** 0-based index of the screen being shown; equals screens.length when done. */
  index: number;
  answers: DiagnosticAnswers;
  /** Seconds left on a timed screen's countdown; null when the screen is untimed. */
  secondsLeft: number | null;
  /** A vignette option waiting for its confidence follow-up. */
  chosen: { optionId: string; responseTime: number } | null;
  /** The ranking as currently placed, first priority first. */
  ranking: string[];
  /** Index of the first timed screen, before which 'Timed Questions Ahead' is shown. */
  interstitialAt: number | null;
}

/** The countdown a screen runs, in seconds, or null when it is untimed. */
export function timeLimitSec(screen: Screen): number | null {
  return 'timeLimitSec' in screen ? screen.timeLimitSec : null;
}

/**
 * The answer recorded when a screen's countdown runs out (spec section 4): likert 3, a vignette's
 * first option, a ranking as placed so far with unplaced items after it in default order.
 */
export function timeoutAnswer(screen: Screen, placed: readonly string[]): RecordedAnswer {
  const responseTime = (timeLimitSec(screen) ?? 0) * 1000;
  switch (screen.type) {
    case 'likert':
      return { type: 'likert', value: LIKERT_TIMEOUT_VALUE, responseTime, timedOut: true };
    case 'vignette':
      return { type: 'vignette', value: screen.choiceIds[0] ?? '', responseTime, timedOut: true };
    case 'ranking':
      return {
        type: 'ranking',
        value: [...placed, ...screen.choiceIds.filter((id) => !placed.includes(id))],
        responseTime,
        timedOut: true,
      };
  }
}

/**
 * Where 'Timed Questions Ahead' goes: before the first timed screen, counted by position in the
 * list the machine was given rather than by the screens' own index, so any slice of a bank works.
 */
export function firstTimedIndex(screens: readonly Screen[]): number | null {
  const index = screens.findIndex((screen) => timeLimitSec(screen) !== null);
  return index === -1 ? null : index;
}

/** The progress line 'n of total' for a diagnostic snapshot's context. */
export function diagnosticProgress(context: Pick<DiagnosticContext, 'index' | 'screens'>): {
  current: number;
  total: number;
} {
  const total = context.screens.length;
  return { current: Math.min(context.index + 1, total), total };
}

function currentScreen(context: DiagnosticContext): Screen {
  const screen = context.screens[context.index];
  // Answer states are only entered through `present`, which needs a screen at index.
  if (!screen) throw new Error(`No diagnostic screen at index ${context.index}`);
  return screen;
}

function record(context: DiagnosticContext, answer: RecordedAnswer): Partial<DiagnosticContext> {
  return {
    answers: { ...context.answers, [currentScreen(context).id]: answer },
    index: context.index + 1,
    secondsLeft: null,
    chosen: null,
  };
}

// A placement may leave items out while the visitor drags, but never repeat or invent one.
function isPartialRanking(order: readonly string[], ids: readonly string[]): boolean {
  return new Set(order).size === order.length && order.every((id) => ids.includes(id));
}

const diagnosticSetup = setup({
  types: {
    context: {} as DiagnosticContext,
    events: {} as DiagnosticEvent,
    input: {} as DiagnosticInput,
    output: {} as DiagnosticAnswers,
  },
  actions: {
    answerRecorded: (_, _answer: { itemId: string; answer: RecordedAnswer }) => {},
    startScreen: assign(({ context }) => {
      const screen = currentScreen(context);
      return {
        secondsLeft: timeLimitSec(screen),
        chosen: null,
        ranking: screen.type === 'ranking' ? [...screen.choiceIds] : [],
      };
    }),
    tick: assign({ secondsLeft: ({ context }) => (context.secondsLeft ?? 1) - 1 }),
    recordTimeout: assign(({ context }) => record(context, timeoutAnswer(currentScreen(context), context.ranking))),
    recordLikert: assign(({ context, event }) =>
      event.type === 'ANSWER_LIKERT'
        ? record(context, { type: 'likert', value: event.value, responseTime: event.responseTime, timedOut: false })
        : {},
    ),
    chooseOption: assign({
      chosen: ({ event }) =>
        event.type === 'SELECT_OPTION' ? { optionId: event.optionId, responseTime: event.responseTime } : null,
      // The clock times the decision; the confidence follow-up is a reflection and runs untimed.
      secondsLeft: null,
    }),
    recordVignette: assign(({ context, event }) =>
      event.type === 'SELECT_OPTION'
        ? record(context, {
            type: 'vignette',
            value: event.optionId,
            responseTime: event.responseTime,
            timedOut: false,
          })
        : {},
    ),
    recordConfidence: assign(({ context, event }) =>
      event.type === 'SELECT_CONFIDENCE' && context.chosen
        ? record(context, {
            type: 'vignette',
            value: context.chosen.optionId,
            responseTime: context.chosen.responseTime,
            confidence: event.value,
            timedOut: false,
          })
        : {},
    ),
    reorder: assign({
      ranking: ({ context, event }) => (event.type === 'REORDER_RANKING' ? event.order : context.ranking),
    }),
    recordRanking: assign(({ context, event }) =>
      event.type === 'CONFIRM_RANKING'
        ? record(context, {
            type: 'ranking',
            value: context.ranking,
            responseTime: event.responseTime,
            timedOut: false,
          })
        : {},
    ),
  },
  guards: {
    isFinished: ({ context }) => context.index >= context.screens.length,
    isBeforeTimedBlock: ({ context }) => context.index === context.interstitialAt,
    isLikert: ({ context }) => currentScreen(context).type === 'likert',
    isVignette: ({ context }) => currentScreen(context).type === 'vignette',
    isValidOption: ({ context, event }) => {
      const screen = currentScreen(context);
      return event.type === 'SELECT_OPTION' && screen.type === 'vignette' && screen.choiceIds.includes(event.optionId);
    },
    hasFollowup: ({ context }) => {
      const screen = currentScreen(context);
      return screen.type === 'vignette' && screen.hasFollowup;
    },
    isValidOrder: ({ context, event }) => {
      const screen = currentScreen(context);
      return (
        event.type === 'REORDER_RANKING' &&
        screen.type === 'ranking' &&
        isPartialRanking(event.order, screen.choiceIds)
      );
    },
    allPlaced: ({ context }) => {
      const screen = currentScreen(context);
      return screen.type === 'ranking' && context.ranking.length === screen.choiceIds.length;
    },
    isCounting: ({ context }) => context.secondsLeft !== null,
    isLastSecond: ({ context }) => context.secondsLeft !== null && context.secondsLeft <= 1,
  },
  delays: {
    tick: 1000,
  },
});

/** Reports the answer just recorded, for the web to save progress and the server to store it. */
const announce = {
  type: 'answerRecorded',
  params: ({ context }: { context: DiagnosticContext }) => {
    const screen = context.screens[context.index - 1];
    const answer = screen && context.answers[screen.id];
    if (!screen || !answer) throw new Error('answerRecorded must follow a recorded answer');
    return { itemId: screen.id, answer };
  },
} as const;

/** A timed screen's countdown: a tick a second, and the timeout answer when it reaches zero. */
function countdown(self: string) {
  return diagnosticSetup.createStateConfig({
    after: {
      tick: [
        { guard: 'isLastSecond', target: '#diagnostic.advance', actions: ['recordTimeout', announce] },
        { guard: 'isCounting', target: self, reenter: true, actions: 'tick' },
      ],
    },
  });
}

/**
 * The clock ran out: sent by a browser whose countdown reached zero, and by the server in place of
 * an answer that arrived after the limit (plus network grace), so a late answer is recorded as the
 * auto-answer whatever the browser's clock said.
 */
const timeUp = { guard: 'isCounting', target: '#diagnostic.advance', actions: ['recordTimeout', announce] } as const;

/**
 * The diagnostic (spec section 4, "Diagnostic (modal)"): one screen at a time with progress n of
 * total; 'Timed Questions Ahead' before the first timed screen; a per-screen countdown from its
 * time limit, auto-answering on timeout; a vignette with a follow-up asks confidence 1-5 after the
 * option; a ranking is confirmed only when every item is placed; the last answer ends it, with the
 * answers as output. Provide `answerRecorded` to save or send each answer as it is given.
 */
export const diagnosticMachine = diagnosticSetup.createMachine({
  id: 'diagnostic',
  context: ({ input }) => ({
    screens: input.screens,
    index: 0,
    answers: {},
    secondsLeft: null,
    chosen: null,
    ranking: [],
    interstitialAt: firstTimedIndex(input.screens),
  }),
  initial: 'advance',
  states: {
    advance: {
      always: [
        { guard: 'isFinished', target: 'done' },
        { guard: 'isBeforeTimedBlock', target: 'interstitial' },
        { target: 'present' },
      ],
    },
    interstitial: {
      on: { START_TIMED: { target: 'present' } },
    },
    present: {
      entry: 'startScreen',
      always: [
        { guard: 'isLikert', target: 'likert' },
        { guard: 'isVignette', target: 'vignette' },
        { target: 'ranking' },
      ],
    },
    likert: {
      ...countdown('likert'),
      on: { ANSWER_LIKERT: { target: 'advance', actions: ['recordLikert', announce] }, TIME_UP: timeUp },
    },
    vignette: {
      initial: 'choosing',
      states: {
        choosing: {
          ...countdown('choosing'),
          on: {
            SELECT_OPTION: [
              { guard: and(['isValidOption', 'hasFollowup']), target: 'confidence', actions: 'chooseOption' },
              { guard: 'isValidOption', target: '#diagnostic.advance', actions: ['recordVignette', announce] },
            ],
            TIME_UP: timeUp,
          },
        },
        confidence: {
          on: { SELECT_CONFIDENCE: { target: '#diagnostic.advance', actions: ['recordConfidence', announce] } },
        },
      },
    },
    ranking: {
      ...countdown('ranking'),
      on: {
        REORDER_RANKING: { guard: 'isValidOrder', actions: 'reorder' },
        CONFIRM_RANKING: { guard: 'allPlaced', target: 'advance', actions: ['recordRanking', announce] },
        TIME_UP: timeUp,
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context.answers,
});
