import { createActor } from 'xstate';
import { qualificationSurvey } from '../content/index.js';
import { cannedResult } from '../grading/canned.js';
import type { AssessmentFlowEvent, AssessmentFlowInput, FlowResult } from '../protocol/assessment-flow.js';
import type { DiagnosticAnswers, SurveyAnswers, Tier } from '../protocol/common.js';
import { assessmentFlowMachine } from './assessment-flow.machine.js';

/** Test data and a recording harness shared by the flow's unit and model-based tests. */
export const LEAD_ID = '0b6f2d4e-8c1a-4f3b-9d2e-7a5c6b4d3e21';
/** A Mirror session id as the browser would generate it. */
export const MIRROR_SESSION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** A diagnostic finished on the standalone page. */
export const STANDALONE_DIAGNOSTIC_ID = '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98';

/** A hosted checkout page as the payment provider opens it. */
export const CHECKOUT_URL = 'https://checkout.stripe.com/c/pay/cs_test_fixture';

/** Two recorded answers: enough for the flow, which leaves their meaning to grading. */
export const sampleAnswers: DiagnosticAnswers = {
  b1: { type: 'likert', value: 4, responseTime: 4200, timedOut: false },
  vig_dc: { type: 'vignette', value: 'dc_a', confidence: 3, responseTime: 20_000, timedOut: false },
};

/** A complete survey: the first option of every choice question and text for the rest. */
export const completeSurvey: SurveyAnswers = Object.fromEntries(
  qualificationSurvey.questions.map((q) => [q.id, q.kind === 'choice' ? (q.options[0]?.id ?? '') : 'Lead better.']),
);

/** A result routed to the given tier. */
export function resultFor(tier: Tier): FlowResult {
  return { ...cannedResult(), qualification: tier, fallback: false };
}

/** A result whose grading saw gaming, with the server's message or none. */
export function gamingResult(message?: string): FlowResult {
  return { ...cannedResult(), gamingDetected: true, requiresRetake: true, ...(message ? { message } : {}) };
}

/** A user turn and the Mirror's answer. */
export const sampleChat = [
  { role: 'mirror', content: 'What decision?' },
  { role: 'user', content: 'Whether to promote from within.' },
] as const;

/** One sample of every event, with the variants that lead somewhere different. */
export const sampleEvents: AssessmentFlowEvent[] = [
  { type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' },
  { type: 'LEAD_SAVED', leadId: LEAD_ID },
  { type: 'LEAD_FAILED' },
  { type: 'START_DIAGNOSTIC' },
  { type: 'MIRROR_COMPLETED', sessionId: MIRROR_SESSION_ID, chat: [...sampleChat] },
  { type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers },
  { type: 'SURVEY_SUBMITTED', answers: completeSurvey },
  { type: 'EMAIL_SUBMIT', email: 'sam@example.com', name: 'Sam' },
  { type: 'EMAIL_SUBMIT', email: 'not-an-email', name: 'Sam' },
  { type: 'EMAIL_EDITED' },
  { type: 'CONTINUE_WITHOUT_SAVING' },
  { type: 'GRADED', result: resultFor('book_call') },
  { type: 'GRADED', result: resultFor('homework') },
  { type: 'GRADED', result: resultFor('nurture') },
  { type: 'GRADED', result: gamingResult() },
  { type: 'CONTINUE' },
  { type: 'BACK_TO_RESULTS' },
  { type: 'RETAKE' },
  { type: 'PAY_DEPOSIT' },
  { type: 'PAY_FOR_HOMEWORK' },
  { type: 'CHECKOUT_OPENED', url: CHECKOUT_URL },
  { type: 'CHOOSE_FREE_RESOURCES' },
  { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_model' },
  { type: 'PAYMENT_FAILED', reason: 'verification_failed' },
  { type: 'PAYMENT_CANCELED' },
  { type: 'HOMEWORK_SENT' },
  { type: 'HOMEWORK_FAILED' },
  { type: 'BOOK_SESSION' },
  { type: 'SESSION_BOOKED', provider: 'calendly', startsAt: '2026-12-01T15:00:00.000Z' },
  { type: 'SESSION_CANCELED', provider: 'calendly' },
  { type: 'JOIN_COMMUNITY' },
  { type: 'VIEW_RESULTS' },
  { type: 'SET_TESTING_MODE', on: true },
  { type: 'SET_TESTING_MODE', on: false },
  { type: 'DEPOSIT_REFUNDED' },
];

/** The flow's effects, recorded in order with their parameters. */
type RecordedEffect = { type: string; params: unknown };

/** Starts the flow with every effect recorded instead of run. */
export function startFlow(input: AssessmentFlowInput = {}) {
  const effects: RecordedEffect[] = [];
  const record =
    (type: string) =>
    (_: unknown, params: unknown): void => {
      effects.push({ type, params });
    };
  const machine = assessmentFlowMachine.provide({
    actions: {
      createLead: record('createLead'),
      requestGrading: record('requestGrading'),
      startPayment: record('startPayment'),
      sendHomework: record('sendHomework'),
      clearStoredAssessment: record('clearStoredAssessment'),
      clearSavedAnswers: record('clearSavedAnswers'),
    },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, effects, machine, effectTypes: () => effects.map((e) => e.type) };
}
