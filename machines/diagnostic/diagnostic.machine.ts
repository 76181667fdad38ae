import { and, setup } from 'xstate';
import { diagnosticActions } from './diagnostic.actions.js';
import { currentScreen } from './diagnostic.answers.js';
import { diagnosticTypes, initialContext, type DiagnosticContext } from './diagnostic.context.js';
import { diagnosticEffects } from './diagnostic.effects.js';
import { diagnosticGuards } from './diagnostic.guards.js';
import { screenTimeoutMs } from './diagnostic.screens.js';

const diagnosticSetup = setup({
  types: diagnosticTypes,
  actions: { ...diagnosticEffects, ...diagnosticActions },
  guards: diagnosticGuards,
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
  context: ({ input }) => initialContext(input),
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
