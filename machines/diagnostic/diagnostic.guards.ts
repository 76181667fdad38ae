import { currentScreen, elapsedOnScreen, isPartialRanking } from './diagnostic.answers.js';
import type { DiagnosticArgs } from './diagnostic.context.js';
import { timeLimitSec } from './diagnostic.screens.js';
import { isLate } from './response-time.js';

/** The diagnostic's guards, by the names its transitions use. */
export const diagnosticGuards = {
  isFinished: ({ context }: DiagnosticArgs) => context.index >= context.screens.length,
  isStandalone: ({ context }: DiagnosticArgs) => context.standalone,
  isBeforeTimedBlock: ({ context }: DiagnosticArgs) => context.index === context.interstitialAt,
  isLikert: ({ context }: DiagnosticArgs) => currentScreen(context).type === 'likert',
  isVignette: ({ context }: DiagnosticArgs) => currentScreen(context).type === 'vignette',
  isValidOption: ({ context, event }: DiagnosticArgs) => {
    const screen = currentScreen(context);
    return event.type === 'SELECT_OPTION' && screen.type === 'vignette' && screen.choiceIds.includes(event.optionId);
  },
  hasFollowup: ({ context }: DiagnosticArgs) => {
    const screen = currentScreen(context);
    return screen.type === 'vignette' && screen.hasFollowup;
  },
  isValidOrder: ({ context, event }: DiagnosticArgs) => {
    const screen = currentScreen(context);
    return event.type === 'REORDER_RANKING' && screen.type === 'ranking' && isPartialRanking(event.order, screen.choiceIds);
  },
  allPlaced: ({ context }: DiagnosticArgs) => {
    const screen = currentScreen(context);
    return screen.type === 'ranking' && context.ranking.length === screen.choiceIds.length;
  },
  /** An answer the server received after the screen's limit plus grace. */
  isLateAnswer: ({ context, event }: DiagnosticArgs) => {
    const elapsed = elapsedOnScreen(context, event);
    return elapsed !== null && isLate(elapsed, timeLimitSec(currentScreen(context)));
  },
  /**
   * The screen's timer, unless it is one left over from an earlier screen (the same state node
   * is entered again for the next one) that arrives before this screen's own deadline. A timer
   * without the server's stamp is this actor's own, which leaving the screen would have cancelled.
   */
  isTimerDue: ({ context, event }: DiagnosticArgs) => {
    const elapsed = elapsedOnScreen(context, event);
    return elapsed === null || isLate(elapsed, timeLimitSec(currentScreen(context)));
  },
};
