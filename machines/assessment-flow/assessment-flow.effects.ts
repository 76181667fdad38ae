import { browserEffect, serverEffect } from '../effect.js';
import type { AssessmentFlowEvent, FlowResult, HomeworkSource } from '../protocol/assessment-flow.js';
import type { DiagnosticAnswers, LeadSource, MirrorTurn, SurveyAnswers } from '../protocol/common.js';
import type { PaymentPurpose } from '../protocol/payment.js';
import type { AssessmentFlowContext } from './assessment-flow.context.js';
import { COMMUNITY_MEMBER_NAME } from './assessment-flow.copy.js';

/** What `createLead` is asked to save; the lead service returns an existing lead for a known email. */
export interface LeadRequest {
  email: string;
  name: string;
  source: LeadSource;
  leadToken: string | null;
  testingMode: boolean;
}

/** The lead-assessment payload, less the timestamp the effect adds. */
export interface GradingRequest {
  leadId: string;
  email: string | null;
  name: string | null;
  source: LeadSource;
  assessment: DiagnosticAnswers;
  survey: SurveyAnswers;
  mirrorChat: MirrorTurn[];
  mirrorSessionId: string | null;
  testingMode: boolean;
  /** The standalone diagnostic the answers came from: its report then shows this assessment. */
  diagnosticId: string | null;
}

/**
 * What `sendResults` is asked to email: the result the capture step promised ("We will send your
 * results to this address"), to the lead's stored address. Never for a testing-mode flow.
 */
export interface ResultsEmailRequest {
  leadId: string;
  result: FlowResult;
}

/** What `sendReceipt` is asked to email: the receipt of a confirmed payment (the deposit, or paid homework). */
export interface ReceiptRequest {
  leadId: string;
  paymentIntentId: string;
}

/** What `startPayment` is asked to start. */
export interface PaymentRequest {
  purpose: PaymentPurpose;
  leadId: string | null;
  email: string | null;
}

/** The send-homework payload. */
export interface HomeworkRequest {
  leadId: string | null;
  email: string | null;
  name: string | null;
  sendHomework: boolean;
  source: HomeworkSource;
  diagnosticData: FlowResult | null;
}

/** A follow-up reminder email to the flow's lead: the server composes it when it goes (core/email/follow-up-*). */
export interface ReminderRequest {
  leadId: string;
}

/** A follow-up's timer: `event` is applied to the flow after `delayMs` (a timer job on the server). */
export interface TimerRequest {
  event: 'BOOKING_REMINDER_DUE' | 'ASSESSMENT_REMINDER_DUE';
  delayMs: number;
}

/**
 * The effects the flow names for its host, in the order hosts list them. The server performs every
 * one (job rows, or writes in the event's own transaction; each by the same name in
 * core/flows/effects.ts) except clearSavedAnswers, which forgets the browser tab's own copies.
 */
export const assessmentFlowEffects = {
  createLead: serverEffect<LeadRequest>(),
  requestGrading: serverEffect<GradingRequest>(),
  startPayment: serverEffect<PaymentRequest>(),
  sendHomework: serverEffect<HomeworkRequest>(),
  sendResults: serverEffect<ResultsEmailRequest>(),
  sendReceipt: serverEffect<ReceiptRequest>(),
  setTimer: serverEffect<TimerRequest>(),
  remindToBook: serverEffect<ReminderRequest>(),
  remindToFinish: serverEffect<ReminderRequest>(),
  clearStoredAssessment: serverEffect(),
  clearSavedAnswers: browserEffect(),
};

type Args = { context: AssessmentFlowContext };

/** The lead the flow grades and emails for. */
function requireLeadId(context: AssessmentFlowContext): string {
  // Processing is entered only with a lead id: the survey routes to email capture without one.
  if (!context.session.leadId) throw new Error('No lead ID found. Please complete email capture first.');
  return context.session.leadId;
}

/** The lead the capture steps save, named as a community member when the name was left empty. */
export const leadRequest = ({ context }: Args): LeadRequest => ({
  email: context.session.email ?? '',
  name: context.session.name ?? COMMUNITY_MEMBER_NAME,
  source: context.session.source,
  leadToken: context.session.leadToken,
  testingMode: context.testingMode,
});

/** Everything the flow gathered, for the grader. */
export const gradingRequest = ({ context }: Args): GradingRequest => ({
  leadId: requireLeadId(context),
  email: context.session.email,
  name: context.session.name,
  source: context.session.source,
  assessment: context.answers,
  survey: context.survey,
  mirrorChat: context.mirrorChat,
  mirrorSessionId: context.session.mirrorSessionId,
  testingMode: context.testingMode,
  diagnosticId: context.standaloneDiagnosticId,
});

/** The payment the visitor chose. */
export const paymentRequest = ({ context }: Args): PaymentRequest => ({
  // Both ways in (PAY_DEPOSIT, PAY_FOR_HOMEWORK) set the purpose first; the fallback only satisfies types.
  purpose: context.paymentPurpose ?? 'deposit',
  leadId: context.session.leadId,
  email: context.session.email,
});

/** The homework (paid) or free resources, with the result they are chosen for. */
export const homeworkRequest = ({ context }: Args): HomeworkRequest => ({
  leadId: context.session.leadId,
  email: context.session.email,
  name: context.session.name,
  sendHomework: context.homeworkSource === 'paid_homework',
  // Every way in sets the source first; the fallback only satisfies types.
  source: context.homeworkSource ?? 'free_resources',
  diagnosticData: context.result,
});

/** What the flow's conditional effects are called with: XState's `enqueueActions` arguments, as far as they are used. */
interface EnqueueArgs {
  context: AssessmentFlowContext;
  event: AssessmentFlowEvent;
  enqueue: (action: { type: 'sendResults'; params: ResultsEmailRequest } | { type: 'sendReceipt'; params: ReceiptRequest }) => void;
}

/** On GRADED, the email the capture step promised; test leads and a canned fallback get none. */
export function queueResultsEmail({ context, event, enqueue }: EnqueueArgs): void {
  if (event.type !== 'GRADED' || context.testingMode || event.result.fallback) return;
  enqueue({ type: 'sendResults', params: { leadId: requireLeadId(context), result: event.result } });
}

/** On a confirmed payment (the deposit, or paid homework), its receipt; test leads get none. */
export function queueReceipt({ context, event, enqueue }: EnqueueArgs): void {
  if (event.type !== 'PAYMENT_CONFIRMED' || context.testingMode || !context.session.leadId) return;
  enqueue({ type: 'sendReceipt', params: { leadId: context.session.leadId, paymentIntentId: event.paymentIntentId } });
}

/** The lead a reminder goes to (the guards allow a reminder only once the flow has one). */
export const reminderRequest = ({ context }: Args): ReminderRequest => ({ leadId: requireLeadId(context) });
