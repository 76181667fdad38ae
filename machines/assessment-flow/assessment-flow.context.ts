import {
  FOLLOW_UP_DELAY_MS,
  assessmentFlowInputSchema,
  type AssessmentFlowEvent,
  type AssessmentFlowInput,
  type CompletedPath,
  type FlowResult,
  type HomeworkSource,
} from '../protocol/assessment-flow.js';
import type { DiagnosticAnswers, FlowMode, LeadSession, MirrorTurn, Notice, SurveyAnswers } from '../protocol/common.js';
import type { PaymentPurpose } from '../protocol/payment.js';

/** What the assessment flow holds: the lead session and the journey so far. */
export interface AssessmentFlowContext {
  mode: FlowMode;
  testingMode: boolean;
  session: LeadSession;
  answers: DiagnosticAnswers;
  survey: SurveyAnswers;
  mirrorChat: MirrorTurn[];
  result: FlowResult | null;
  paymentPurpose: PaymentPurpose | null;
  /** The hosted checkout the server opened for the current payment attempt (Stripe mode), once it has. */
  checkoutUrl: string | null;
  homeworkSource: HomeworkSource | null;
  /** Where the path ended after the results (deposit paid, homework sent, community joined), once it has. */
  completedPath: CompletedPath | null;
  /** The standalone diagnostic whose answers this flow took instead of running its own, if any. */
  standaloneDiagnosticId: string | null;
  /** The message the current screen shows, if any. */
  notice: Notice | null;
  followUps: FollowUps;
  /**
   * Which visit of a step that runs a child flow (the diagnostic, the Mirror) this is: each entry
   * to such a step counts one up and nothing else changes it, so the browser keys the child flow
   * of a visit by it (childFlowSlot) and an event from the server or a worker leaves that flow
   * running. A flow moved up from version 4 counts on from its own version (flows.version).
   */
  childFlowVisit: number;
}

/** The two follow-up reminders: how long each waits, and whether it went (each goes at most once per flow). */
export interface FollowUps {
  bookingReminderMs: number;
  assessmentReminderMs: number;
  remindedToBook: boolean;
  remindedToFinish: boolean;
}

// Only the types of these values matter: setup() infers the machine's context, events and input from
// them (written inline, the `{} as` would read as redundant where the type is inferred).
export const assessmentFlowTypes = {
  context: {} as AssessmentFlowContext,
  events: {} as AssessmentFlowEvent,
  input: {} as AssessmentFlowInput,
};

/** What the flow's guards and actions are called with. */
export interface AssessmentFlowArgs {
  context: AssessmentFlowContext;
  event: AssessmentFlowEvent;
}

const blankSession: LeadSession = {
  source: 'direct',
  leadToken: null,
  leadId: null,
  email: null,
  name: null,
  assessmentCompleted: false,
  surveyCompleted: false,
  mirrorSessionId: null,
  paymentIntentId: null,
};

function openingSession(input: ReturnType<typeof assessmentFlowInputSchema.parse>): LeadSession {
  const { token, knownSession, communityReferral } = input;
  if (token?.status === 'valid') {
    const { source, leadId, email, name } = token;
    return { ...blankSession, source, leadToken: token.token, leadId, email, name };
  }
  // A link whose token failed takes the normal capture path, whatever else is known.
  if (token?.status === 'invalid') return blankSession;
  if (knownSession) return { ...blankSession, ...knownSession };
  return communityReferral ? { ...blankSession, source: 'community' } : blankSession;
}

/**
 * The context a flow opens with: a returning visitor's stored result (never in testing mode or the
 * Mirror), else a standalone diagnostic's answers, else a fresh start with what the link told.
 */
export function initialContext(input: AssessmentFlowInput): AssessmentFlowContext {
  const parsed = assessmentFlowInputSchema.parse(input);
  const showsStored = parsed.storedResult !== null && !parsed.testingMode && parsed.mode !== 'mirror';
  const standalone = showsStored ? null : parsed.standaloneDiagnostic;
  const session = openingSession(parsed);
  return {
    mode: parsed.mode,
    testingMode: parsed.testingMode,
    session: standalone ? { ...session, assessmentCompleted: true } : session,
    answers: standalone?.answers ?? {},
    survey: {},
    mirrorChat: [],
    result: showsStored ? parsed.storedResult : null,
    paymentPurpose: null,
    checkoutUrl: null,
    homeworkSource: null,
    completedPath: showsStored ? parsed.storedPath : null,
    standaloneDiagnosticId: standalone?.id ?? null,
    notice: null,
    followUps: {
      bookingReminderMs: parsed.followUpDelays.bookingReminderMs ?? FOLLOW_UP_DELAY_MS,
      assessmentReminderMs: parsed.followUpDelays.assessmentReminderMs ?? FOLLOW_UP_DELAY_MS,
      remindedToBook: false,
      remindedToFinish: false,
    },
    childFlowVisit: 0,
  };
}
