import { completeSurvey, LEAD_ID, startFlow } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { diagnosticScreens } from '#machines/content/index.js';
import { gradeAssessment } from '#machines/grading/index.js';
import type { FlowResult } from '#machines/protocol/assessment-flow.js';
import type { DiagnosticAnswers, Tier } from '#machines/protocol/common.js';
import { startingView } from '#web/lib/flows/session-view.js';
import type { AssessmentFlow } from './types.js';

/*
 * Snapshots of the real assessment flow for the step components' tests: the shared machine
 * (machines/assessment-flow) walked with its own events, as the server and the modal run it.
 */

/** Varied likert answers: a straight line of one value reads as gaming. */
const LIKERT_VALUES = [4, 2, 5, 3, 4, 1, 5, 2, 3, 4, 2, 5];

/** Every screen of the bank answered: varied likert values, each vignette's first option at confidence 3, the ranking as given. */
const fullAnswers: DiagnosticAnswers = Object.fromEntries(
  diagnosticScreens.map((screen, index) => [
    screen.id,
    screen.type === 'likert'
      ? { type: 'likert', value: LIKERT_VALUES[index % LIKERT_VALUES.length]!, responseTime: 4000 + index * 150, timedOut: false }
      : screen.type === 'ranking'
        ? { type: 'ranking', value: screen.choiceIds, responseTime: 9000, timedOut: false }
        : { type: 'vignette', value: screen.choiceIds[0]!, confidence: 3, responseTime: 20_000, timedOut: false },
  ]),
);

/** The real grading of those answers, routed to `tier`. */
function gradedFor(tier: Tier): FlowResult {
  return { ...gradeAssessment({ answers: fullAnswers, survey: completeSurvey, mirrorChat: [] }), qualification: tier };
}

/** A returning lead's flow (their session known to this browser), at the diagnostic; `testingMode` makes it a test flow. */
export function knownVisitorFlow(options: { testingMode?: boolean } = {}) {
  return startFlow({
    ...options,
    knownSession: { leadId: LEAD_ID, email: 'ada@example.com', name: 'Ada', source: 'direct', leadToken: null },
  });
}

/** That flow walked through the diagnostic, survey and grading to the results of `tier`. */
export function flowAtResults(tier: Tier) {
  const flow = knownVisitorFlow();
  flow.actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: fullAnswers });
  flow.actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
  flow.actor.send({ type: 'GRADED', result: gradedFor(tier) });
  return flow;
}

/** What useServerFlow gives the modal for a flow the server has confirmed, sending through `send`. */
export function confirmedFlow(send: AssessmentFlow['send']): AssessmentFlow {
  return {
    ...startingView('open'),
    status: 'ready',
    flowId: 'flow-1',
    version: 1,
    send,
    applyLocal: () => false,
    refresh: () => Promise.resolve(),
    retry: () => {},
  };
}
