import { assignerFor } from '../assigner.js';
import { GAMING_MESSAGE } from '../grading/gaming.js';
import type { AssessmentFlowEvent, CompletedPath, HomeworkSource } from '../protocol/assessment-flow.js';
import type { Notice } from '../protocol/common.js';
import { paymentFailureNotices, type PaymentFailureReason, type PaymentPurpose } from '../protocol/payment.js';
import type { AssessmentFlowContext } from './assessment-flow.context.js';
import { COMMUNITY_MEMBER_NAME } from './assessment-flow.copy.js';

const update = assignerFor<AssessmentFlowContext, AssessmentFlowEvent>();

/** How the flow's own context changes, by the names its transitions use; the effects are in assessment-flow.effects.ts. */
export const assessmentFlowUpdates = {
  setNotice: update((_, notice: Notice) => ({ notice })),
  clearNotice: update({ notice: null }),
  takeCaptureDetails: update({
    session: ({ context, event }) =>
      event.type === 'CAPTURE_SUBMIT' ? { ...context.session, name: event.name.trim(), email: event.email.trim() } : context.session,
  }),
  takeEmailDetails: update({
    session: ({ context, event }) => {
      if (event.type !== 'EMAIL_SUBMIT') return context.session;
      const name = event.name.trim() || context.session.name || COMMUNITY_MEMBER_NAME;
      return { ...context.session, email: event.email.trim(), name };
    },
  }),
  takeLeadId: update({
    session: ({ context, event }) =>
      event.type === 'LEAD_SAVED'
        ? { ...context.session, leadId: event.leadId, ...(event.unconfirmed ? { addressUnconfirmed: true as const } : {}) }
        : context.session,
  }),
  takeConfirmedAddress: update({
    session: ({ context }) => {
      const { addressUnconfirmed: _confirmed, ...session } = context.session;
      return session;
    },
  }),
  takeMirror: update(({ context, event }) =>
    event.type === 'MIRROR_COMPLETED' ? { mirrorChat: event.chat, session: { ...context.session, mirrorSessionId: event.sessionId } } : {},
  ),
  takeAnswers: update(({ context, event }) =>
    event.type === 'DIAGNOSTIC_COMPLETED' ? { answers: event.answers, session: { ...context.session, assessmentCompleted: true } } : {},
  ),
  takeSurvey: update(({ context, event }) =>
    event.type === 'SURVEY_SUBMITTED' ? { survey: event.answers, session: { ...context.session, surveyCompleted: true } } : {},
  ),
  takeResult: update({ result: ({ context, event }) => (event.type === 'GRADED' ? event.result : context.result) }),
  takeGamingMessage: update({
    notice: ({ event }) => ({
      title: null,
      description: (event.type === 'GRADED' && 'message' in event.result && event.result.message) || GAMING_MESSAGE,
    }),
  }),
  resetAnswers: update(({ context }) => ({
    answers: {},
    survey: {},
    result: null,
    standaloneDiagnosticId: null,
    // a paid deposit stays paid whatever a retake shows; the other paths are chosen again
    completedPath: context.completedPath?.kind === 'deposit_paid' ? context.completedPath : null,
    session: { ...context.session, assessmentCompleted: false, surveyCompleted: false },
  })),
  completePath: update((_, completedPath: CompletedPath) => ({ completedPath })),
  /** The booking page opened; a booking the provider already reported stays booked. */
  markBookingOpened: update(({ context }) =>
    context.completedPath?.kind === 'deposit_paid' && context.completedPath.booking === 'none'
      ? { completedPath: { ...context.completedPath, booking: 'opened' as const } }
      : {},
  ),
  /** The provider's word: booked (SESSION_BOOKED) or, cancelled, back to opened (SESSION_CANCELED). */
  markBooking: update(({ context }, params: { booking: 'opened' | 'booked' }) =>
    context.completedPath?.kind === 'deposit_paid' ? { completedPath: { ...context.completedPath, booking: params.booking } } : {},
  ),
  /** The coach refunded the deposit: the path says so; its booking stands until cancelled at the scheduler. */
  markRefunded: update(({ context }) =>
    context.completedPath?.kind === 'deposit_paid' ? { completedPath: { ...context.completedPath, refunded: true } } : {},
  ),
  /** The testing panel's switch, before the capture (mayChangeTestingMode). */
  setTestingMode: update(({ context, event }) => ({ testingMode: event.type === 'SET_TESTING_MODE' ? event.on : context.testingMode })),
  /** The flow enters the diagnostic or the Mirror: a new visit, so a new child flow (childFlowSlot). */
  countChildFlowVisit: update(({ context }) => ({ childFlowVisit: context.childFlowVisit + 1 })),
  markReminded: update(({ context }, params: { reminder: 'remindedToBook' | 'remindedToFinish' }) => ({
    followUps: { ...context.followUps, [params.reminder]: true },
  })),
  takeHomeworkSent: update(({ context }) => ({
    completedPath: { kind: 'homework_sent' as const, source: context.homeworkSource ?? ('free_resources' as const) },
  })),
  choosePayment: update((_, params: { purpose: PaymentPurpose }) => ({ paymentPurpose: params.purpose, checkoutUrl: null })),
  takeCheckoutUrl: update({
    checkoutUrl: ({ context, event }) => (event.type === 'CHECKOUT_OPENED' ? event.url : context.checkoutUrl),
  }),
  chooseHomework: update((_, params: { source: HomeworkSource }) => ({ homeworkSource: params.source })),
  takePaymentIntent: update({
    session: ({ context, event }) =>
      event.type === 'PAYMENT_CONFIRMED' ? { ...context.session, paymentIntentId: event.paymentIntentId } : context.session,
  }),
  showPaymentFailure: update({
    notice: ({ event }) => {
      const reason: PaymentFailureReason = event.type === 'PAYMENT_FAILED' ? event.reason : 'canceled';
      return paymentFailureNotices[reason];
    },
  }),
};
