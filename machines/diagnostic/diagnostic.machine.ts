import { and, assign, setup } from 'xstate';
import { effect } from '../effect.js';
import type { Screen } from '../content/schemas.js';
import type { DiagnosticAnswers, RecordedAnswer } from '../protocol/common.js';
import type { DiagnosticEvent, DiagnosticResult } from '../protocol/diagnostic.js';
import { isLate, TIMED_GRACE_MS, trustedResponseTime } from './response-time.js';

/** The likert value a question gets when its countdown runs out. */
const LIKERT_TIMEOUT_VALUE = 3;

/**
 * How long after a timed screen's deadline (limit plus grace) its timer fires: a timer is due by
 * the clock of the process that holds it (BullMQ's), but judged by the database's (the event's
 * `at`), so a little slack keeps a timer from arriving early and being ignored.
 */
const TIMER_SLACK_MS = 500;

/** What the diagnostic machine starts from: the bank's screens in order (content's flattenBank). */
interface DiagnosticInput {
  screens: Screen[];
  /** The standalone /diagnostic: graded by the server after the last answer (the modal's is handed to the assessment). */
  standalone?: boolean;
  /** When the flow started, in ms by the server's clock: the first screen was shown then. */
  startedAt?: number;
}

/** What one diagnostic run holds. */
export interface DiagnosticContext {
  screens: Screen[];
  /** 0-based index of the screen being shown; equals screens.length when done. */
  index: number;
  answers: DiagnosticAnswers;
  /** When the screen being shown was shown, in ms by the server's clock; null without the server's stamps. */
  shownAt: number | null;
  /** A vignette option waiting for its confidence follow-up. */
  chosen: { optionId: string; responseTime: number } | null;
  /** The ranking as currently placed, first priority first. */
  ranking: string[];
  /** Index of the first timed screen, before which 'Timed Questions Ahead' is shown. */
  interstitialAt: number | null;
  standalone: boolean;
  /** The standalone diagnostic's result, once graded. */
  result: DiagnosticResult | null;
}

/** What the standalone diagnostic asks the server to grade. */
export interface DiagnosticGradingRequest {
  answers: DiagnosticAnswers;
}

/** The countdown a screen runs, in seconds, or null when it is untimed. */
export function timeLimitSec(screen: Screen): number | null {
  return 'timeLimitSec' in screen ? screen.timeLimitSec : null;
}

/**
 * The answer recorded when a screen's countdown runs out: likert 3, a vignette's
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

/**
 * How long after a timed screen is shown its timer fires: the limit, the network grace, and the
 * slack for clocks. The timer records the timeout answer if the screen is still unanswered.
 */
export function screenTimeoutMs(screen: Screen): number {
  return (timeLimitSec(screen) ?? 0) * 1000 + TIMED_GRACE_MS + TIMER_SLACK_MS;
}

/** When the server applied an event (its `at`, ms by the server's clock), or null for a browser's local copy. */
function serverTime(event: object): number | null {
  const at = (event as { at?: unknown }).at;
  return typeof at === 'number' ? at : null;
}

function currentScreen(context: DiagnosticContext): Screen {
  const screen = context.screens[context.index];
  // Answer states are only entered through `present`, which needs a screen at index.
  if (!screen) throw new Error(`No diagnostic screen at index ${context.index}`);
  return screen;
}

/**
 * How long the screen on show had been shown when the server applied `event`, by the server's
 * clock, or null without its stamps (a browser's copy, or a flow stored before screens were timed).
 */
function elapsedOnScreen(context: DiagnosticContext, event: object): number | null {
  const at = serverTime(event);
  return at === null || context.shownAt == null ? null : at - context.shownAt;
}

/**
 * The response time to record: the browser's claim, unless the server's stamps make it
 * implausible, then the server's own measure (response-time.ts). Without stamps, the claim.
 */
function responseTimeOf(context: DiagnosticContext, event: object, claimed: number): number {
  const elapsed = elapsedOnScreen(context, event);
  return elapsed === null ? claimed : trustedResponseTime(claimed, elapsed);
}

/** Records the answer of the screen on show and moves on; the next screen is shown by `event`. */
function record(context: DiagnosticContext, event: object, answer: RecordedAnswer): Partial<DiagnosticContext> {
  return {
    answers: { ...context.answers, [currentScreen(context).id]: answer },
    index: context.index + 1,
    shownAt: serverTime(event),
    chosen: null,
  };
}

// A placement may leave items out while the visitor drags, but never repeat or invent one.
function isPartialRanking(order: readonly string[], ids: readonly string[]): boolean {
  return new Set(order).size === order.length && order.every((id) => ids.includes(id));
}

// Only the types of these values matter: setup() infers the machine's context, events, input and
// output from them (written inline, the `{} as` would read as redundant where the type is inferred).
const diagnosticTypes = {
  context: {} as DiagnosticContext,
  events: {} as DiagnosticEvent,
  input: {} as DiagnosticInput,
  output: {} as DiagnosticAnswers,
};

const diagnosticSetup = setup({
  types: diagnosticTypes,
  actions: {
    answerRecorded: effect<{ itemId: string; answer: RecordedAnswer }>(),
    requestGrading: effect<DiagnosticGradingRequest>(),
    startScreen: assign(({ context }) => {
      const screen = currentScreen(context);
      return { chosen: null, ranking: screen.type === 'ranking' ? [...screen.choiceIds] : [] };
    }),
    // the timed block's first screen is shown when the visitor starts it
    startTimed: assign({ shownAt: ({ event }) => serverTime(event) }),
    recordTimeout: assign(({ context, event }) => record(context, event, timeoutAnswer(currentScreen(context), context.ranking))),
    recordLikert: assign(({ context, event }) =>
      event.type === 'ANSWER_LIKERT'
        ? record(context, event, {
            type: 'likert',
            value: event.value,
            responseTime: responseTimeOf(context, event, event.responseTime),
            timedOut: false,
          })
        : {},
    ),
    // The clock times the decision; the confidence follow-up is a reflection and runs untimed.
    chooseOption: assign({
      chosen: ({ context, event }) =>
        event.type === 'SELECT_OPTION'
          ? { optionId: event.optionId, responseTime: responseTimeOf(context, event, event.responseTime) }
          : null,
    }),
    recordVignette: assign(({ context, event }) =>
      event.type === 'SELECT_OPTION'
        ? record(context, event, {
            type: 'vignette',
            value: event.optionId,
            responseTime: responseTimeOf(context, event, event.responseTime),
            timedOut: false,
          })
        : {},
    ),
    recordConfidence: assign(({ context, event }) =>
      event.type === 'SELECT_CONFIDENCE' && context.chosen
        ? record(context, event, {
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
        ? record(context, event, {
            type: 'ranking',
            value: context.ranking,
            responseTime: responseTimeOf(context, event, event.responseTime),
            timedOut: false,
          })
        : {},
    ),
    takeResult: assign({ result: ({ context, event }) => (event.type === 'GRADED' ? event.result : context.result) }),
  },
  guards: {
    isFinished: ({ context }) => context.index >= context.screens.length,
    isStandalone: ({ context }) => context.standalone,
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
      return event.type === 'REORDER_RANKING' && screen.type === 'ranking' && isPartialRanking(event.order, screen.choiceIds);
    },
    allPlaced: ({ context }) => {
      const screen = currentScreen(context);
      return screen.type === 'ranking' && context.ranking.length === screen.choiceIds.length;
    },
    /** An answer the server received after the screen's limit plus grace. */
    isLateAnswer: ({ context, event }) => {
      const elapsed = elapsedOnScreen(context, event);
      return elapsed !== null && isLate(elapsed, timeLimitSec(currentScreen(context)));
    },
    /**
     * The screen's timer, unless it is one left over from an earlier screen (the same state node
     * is entered again for the next one) that arrives before this screen's own deadline. A timer
     * without the server's stamp is this actor's own, which leaving the screen would have cancelled.
     */
    isTimerDue: ({ context, event }) => {
      const elapsed = elapsedOnScreen(context, event);
      return elapsed === null || isLate(elapsed, timeLimitSec(currentScreen(context)));
    },
  },
  delays: {
    screenTimeout: ({ context }) => screenTimeoutMs(currentScreen(context)),
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

/** The clock ran out: the timeout auto-answer, marked timedOut. */
const timedOut = { target: '#diagnostic.advance', actions: ['recordTimeout', announce] } as const;

/**
 * The diagnostic: one screen at a time with progress n of
 * total; 'Timed Questions Ahead' before the first timed screen; a timed screen's limit enforced by
 * the machine itself on the server's clock (every event the server applies carries `at`): its
 * timer records the timeout answer, and an answer arriving after the limit plus the network grace
 * is recorded as that answer instead; a response time the server's stamps make implausible is
 * replaced by the server's measure. A vignette with a follow-up asks confidence 1-5 after the
 * option; a ranking is confirmed only when every item is placed. The last answer ends the modal's
 * diagnostic (`done`, the answers as output); a standalone one asks the server to grade it
 * (`requestGrading`) and ends `graded` with the result. Provide `answerRecorded` to save or send
 * each answer as it is given.
 */
export const diagnosticMachine = diagnosticSetup.createMachine({
  id: 'diagnostic',
  context: ({ input }) => ({
    screens: input.screens,
    index: 0,
    answers: {},
    shownAt: input.startedAt ?? null,
    chosen: null,
    ranking: [],
    interstitialAt: firstTimedIndex(input.screens),
    standalone: input.standalone ?? false,
    result: null,
  }),
  initial: 'advance',
  states: {
    advance: {
      always: [
        { guard: and(['isFinished', 'isStandalone']), target: 'grading' },
        { guard: 'isFinished', target: 'done' },
        { guard: 'isBeforeTimedBlock', target: 'interstitial' },
        { target: 'present' },
      ],
    },
    interstitial: {
      on: { START_TIMED: { target: 'present', actions: 'startTimed' } },
    },
    present: {
      entry: 'startScreen',
      always: [{ guard: 'isLikert', target: 'likert' }, { guard: 'isVignette', target: 'vignette' }, { target: 'ranking' }],
    },
    likert: {
      on: { ANSWER_LIKERT: { target: 'advance', actions: ['recordLikert', announce] } },
    },
    vignette: {
      initial: 'choosing',
      states: {
        // only vignettes carry a time limit (content's Screen type)
        choosing: {
          after: { screenTimeout: { guard: 'isTimerDue', ...timedOut } },
          on: {
            SELECT_OPTION: [
              { guard: and(['isValidOption', 'isLateAnswer']), ...timedOut },
              { guard: and(['isValidOption', 'hasFollowup']), target: 'confidence', actions: 'chooseOption' },
              { guard: 'isValidOption', target: '#diagnostic.advance', actions: ['recordVignette', announce] },
            ],
          },
        },
        confidence: {
          on: { SELECT_CONFIDENCE: { target: '#diagnostic.advance', actions: ['recordConfidence', announce] } },
        },
      },
    },
    ranking: {
      on: {
        REORDER_RANKING: { guard: 'isValidOrder', actions: 'reorder' },
        CONFIRM_RANKING: { guard: 'allPlaced', target: 'advance', actions: ['recordRanking', announce] },
      },
    },
    grading: {
      entry: { type: 'requestGrading', params: ({ context }) => ({ answers: context.answers }) },
      on: { GRADED: { target: 'graded', actions: 'takeResult' } },
    },
    graded: { type: 'final' },
    done: { type: 'final' },
  },
  output: ({ context }) => context.answers,
});
