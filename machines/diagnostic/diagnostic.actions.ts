import { assignerFor } from '../assigner.js';
import type { DiagnosticEvent } from '../protocol/diagnostic.js';
import { currentScreen, record, responseTimeOf, serverTime } from './diagnostic.answers.js';
import type { DiagnosticContext } from './diagnostic.context.js';
import { timeoutAnswer } from './diagnostic.screens.js';

const update = assignerFor<DiagnosticContext, DiagnosticEvent>();

/** How the diagnostic's context changes, by the names its transitions use. */
export const diagnosticActions = {
  startScreen: update(({ context }) => {
    const screen = currentScreen(context);
    return { chosen: null, ranking: screen.type === 'ranking' ? [...screen.choiceIds] : [] };
  }),
  // the timed block's first screen is shown when the visitor starts it
  startTimed: update({ shownAt: ({ event }) => serverTime(event) }),
  recordTimeout: update(({ context, event }) => record(context, event, timeoutAnswer(currentScreen(context), context.ranking))),
  recordLikert: update(({ context, event }) =>
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
  chooseOption: update({
    chosen: ({ context, event }) =>
      event.type === 'SELECT_OPTION'
        ? { optionId: event.optionId, responseTime: responseTimeOf(context, event, event.responseTime) }
        : null,
  }),
  recordVignette: update(({ context, event }) =>
    event.type === 'SELECT_OPTION'
      ? record(context, event, {
          type: 'vignette',
          value: event.optionId,
          responseTime: responseTimeOf(context, event, event.responseTime),
          timedOut: false,
        })
      : {},
  ),
  recordConfidence: update(({ context, event }) =>
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
  reorder: update({
    ranking: ({ context, event }) => (event.type === 'REORDER_RANKING' ? event.order : context.ranking),
  }),
  recordRanking: update(({ context, event }) =>
    event.type === 'CONFIRM_RANKING'
      ? record(context, event, {
          type: 'ranking',
          value: context.ranking,
          responseTime: responseTimeOf(context, event, event.responseTime),
          timedOut: false,
        })
      : {},
  ),
  takeResult: update({ result: ({ context, event }) => (event.type === 'GRADED' ? event.result : context.result) }),
};
