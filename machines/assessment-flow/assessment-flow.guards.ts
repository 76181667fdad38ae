import { qualificationSurvey } from '../content/index.js';
import { isOlderSurvey } from '../grading/older-survey.js';
import { outcomeFor } from '../grading/outcome.js';
import type { BookingStatus, CompletedPath, FlowResult } from '../protocol/assessment-flow.js';
import { hasText, isSimpleEmail, type SurveyAnswers, type Tier } from '../protocol/common.js';
import type { AssessmentFlowArgs } from './assessment-flow.context.js';

/** The survey's required questions left unanswered (q1 to q5), in survey order; none for the older eight-answer shape. */
export function missingSurveyAnswers(answers: SurveyAnswers): string[] {
  // the older eight-answer shape is complete by its own schema
  if (isOlderSurvey(answers)) return [];
  return qualificationSurvey.questions
    .filter((question) => {
      if (!question.required) return false;
      const answer = answers[question.id] ?? '';
      return question.kind === 'choice' ? !question.options.some((o) => o.id === answer) : !hasText(answer);
    })
    .map((question) => question.id);
}

/** The next-step tier of a result. */
export function resultTier(result: FlowResult): Tier {
  return outcomeFor(result.qualification);
}

/** The assessment flow's guards, by the names its transitions use. */
export const assessmentFlowGuards = {
  hasStoredResult: ({ context }: AssessmentFlowArgs) => context.result !== null,
  skipsCapture: ({ context }: AssessmentFlowArgs) => context.session.source !== 'direct' || context.session.leadId !== null,
  isMirrorMode: ({ context }: AssessmentFlowArgs) => context.mode === 'mirror',
  addressUnconfirmed: ({ context }: AssessmentFlowArgs) => context.session.addressUnconfirmed === true,
  hasNameAndEmail: ({ event }: AssessmentFlowArgs) => event.type === 'CAPTURE_SUBMIT' && hasText(event.name) && hasText(event.email),
  hasUserTurn: ({ event }: AssessmentFlowArgs) => event.type === 'MIRROR_COMPLETED' && event.chat.some((turn) => turn.role === 'user'),
  hasEmail: ({ context }: AssessmentFlowArgs) => hasText(context.session.email ?? ''),
  hasAnswers: ({ event }: AssessmentFlowArgs) => event.type === 'DIAGNOSTIC_COMPLETED' && Object.keys(event.answers).length > 0,
  isSurveyComplete: ({ event }: AssessmentFlowArgs) =>
    event.type === 'SURVEY_SUBMITTED' && missingSurveyAnswers(event.answers).length === 0,
  hasLeadId: ({ context }: AssessmentFlowArgs) => context.session.leadId !== null,
  /** Test or real is the flow's until its lead is captured: the lead is then written as one or the other, for good. */
  mayChangeTestingMode: ({ context }: AssessmentFlowArgs) => context.session.leadId === null,
  isTestingMode: ({ context }: AssessmentFlowArgs) => context.testingMode,
  isEmailInvalid: ({ event }: AssessmentFlowArgs) => event.type === 'EMAIL_SUBMIT' && !isSimpleEmail(event.email),
  isNameMissing: ({ context, event }: AssessmentFlowArgs) =>
    event.type === 'EMAIL_SUBMIT' && context.session.source !== 'community' && !hasText(event.name),
  hasNotice: ({ context }: AssessmentFlowArgs) => context.notice !== null,
  isSurveyCompleted: ({ context }: AssessmentFlowArgs) => context.session.surveyCompleted,
  isGaming: ({ event }: AssessmentFlowArgs) =>
    event.type === 'GRADED' && 'gamingDetected' in event.result && Boolean(event.result.gamingDetected || event.result.requiresRetake),
  /**
   * A graded result arriving while the flow shows the canned fallback (its grading job failed for
   * good, and the coach's retry has now graded it): the real result replaces the stand-in.
   */
  replacesFallback: ({ context, event }: AssessmentFlowArgs) =>
    event.type === 'GRADED' && context.result?.fallback === true && !event.result.fallback,
  hasTier: ({ context }: AssessmentFlowArgs, params: { tier: Tier }) =>
    context.result !== null && resultTier(context.result) === params.tier,
  isDepositPayment: ({ context }: AssessmentFlowArgs) => context.paymentPurpose === 'deposit',
  isPaidHomework: ({ context }: AssessmentFlowArgs) => context.homeworkSource === 'paid_homework',
  isStandaloneDiagnostic: ({ context }: AssessmentFlowArgs) => context.standaloneDiagnosticId !== null,
  /** A paid deposit with no session booked, not reminded yet; test leads get no reminders. */
  mayRemindToBook: ({ context }: AssessmentFlowArgs) =>
    !context.testingMode &&
    !context.followUps.remindedToBook &&
    context.completedPath?.kind === 'deposit_paid' &&
    context.completedPath.booking !== 'booked',
  /** A captured lead still short of the end of the assessment (the states that take the event), not reminded yet. */
  mayRemindToFinish: ({ context }: AssessmentFlowArgs) =>
    !context.testingMode && !context.followUps.remindedToFinish && context.session.leadId !== null,
  hasPath: ({ context }: AssessmentFlowArgs, params: { kind: CompletedPath['kind']; booking?: BookingStatus }) =>
    context.completedPath?.kind === params.kind &&
    (params.booking === undefined || (context.completedPath.kind === 'deposit_paid' && context.completedPath.booking === params.booking)),
};
