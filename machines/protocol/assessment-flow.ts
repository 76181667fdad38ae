import { z } from 'zod';
import type { AssessmentResult, GradeResult } from '../grading/types.js';
import {
  diagnosticAnswersSchema,
  flowModeSchema,
  knownSessionSchema,
  mirrorTurnSchema,
  surveyAnswersSchema,
  tierSchema,
} from './common.js';
import { MIRROR_TURN_LIMIT } from './mirror.js';
import { checkoutUrlSchema, paymentFailureReasonSchema, paymentIntentIdSchema } from './payment.js';

/** Follow-ups wait a day by default (FOLLOW_UP_DELAY_MS); a configured wait is at most 30 days. */
export const FOLLOW_UP_DELAY_MS = 24 * 60 * 60 * 1000;
const MAX_FOLLOW_UP_DELAY_MS = 30 * FOLLOW_UP_DELAY_MS;

/** How homework is delivered: after a paid deposit, or as free resources. */
export const homeworkSourceSchema = z.enum(['paid_homework', 'free_resources']);
/** How homework is delivered. */
export type HomeworkSource = z.infer<typeof homeworkSourceSchema>;

/**
 * Where a deposit's strategy session stands: not yet looked at, the booking page opened by the
 * visitor, or a booking the scheduling provider reported (its webhook; a cancellation takes it back
 * to opened).
 */
export const bookingStatusSchema = z.enum(['none', 'opened', 'booked']);
/** Where a deposit's strategy session stands. */
export type BookingStatus = z.infer<typeof bookingStatusSchema>;

const pathSchema = z.discriminatedUnion('kind', [
  /** `refunded`: the coach refunded the deposit since (the booking stands until the coach cancels it at the scheduler). */
  z.object({ kind: z.literal('deposit_paid'), booking: bookingStatusSchema, refunded: z.boolean().optional() }),
  z.object({ kind: z.literal('homework_sent'), source: homeworkSourceSchema }),
  z.object({ kind: z.literal('community_joined') }),
]);

/**
 * Where a visitor's path ended after their results, kept so that reopening shows the results with
 * it: a deposit paid (and where its booking stands), homework sent, or the community joined. A
 * deposit path written by machine version 1 ({ booked: boolean }, the booking page opened or not)
 * is read as its version 2 equivalent, for the queries that read a stored flow's context directly.
 */
export const completedPathSchema = z.preprocess(
  (value) =>
    value !== null && typeof value === 'object' && 'booked' in value && (value as { kind?: unknown }).kind === 'deposit_paid'
      ? { kind: 'deposit_paid', booking: value.booked === true ? 'opened' : 'none' }
      : value,
  pathSchema,
);
/** Where a visitor's path ended after their results. */
export type CompletedPath = z.infer<typeof pathSchema>;

/** A graded result or the canned fallback, as grading produces them. */
export type FlowResult = AssessmentResult | GradeResult;

const resultShape = z.object({
  archetype: z.string().min(1),
  narrative: z.string(),
  scores: z.record(z.string(), z.number()),
  keyInsights: z.array(z.string()),
  compositeScore: z.number().min(0).max(100),
  qualification: tierSchema,
  confidence: z.number(),
  qualificationReasoning: z.array(z.string()),
  fallback: z.boolean(),
  bankVersion: z.string().nullable(),
  gradingVersion: z.string().min(1),
  gamingDetected: z.boolean().optional(),
  requiresRetake: z.boolean().optional(),
  message: z.string().optional(),
});

/**
 * A result arriving from grading or from storage. Grading owns the full type; this checks the
 * fields the flow and the results page rely on, so a corrupt stored result is dropped, not shown.
 */
export const flowResultSchema = z.custom<FlowResult>((value) => resultShape.safeParse(value).success, {
  message: 'Not an assessment result',
});

/** The outcome of checking a lead-token link, done by the server before the flow starts. */
export const tokenCheckSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('valid'),
    token: z.string().min(1),
    /** community when the token record says so, otherwise token. */
    source: z.enum(['token', 'community']),
    leadId: z.uuid().nullable(),
    email: z.string().max(320).nullable(),
    name: z.string().max(200).nullable(),
  }),
  z.object({ status: z.literal('invalid'), token: z.string(), expired: z.boolean() }),
]);
/** The outcome of checking a lead-token link. */
export type TokenCheck = z.infer<typeof tokenCheckSchema>;

/**
 * What the assessment flow starts from. The caller resolves the token and any stored result first,
 * because those are lookups and the machine does none.
 */
export const assessmentFlowInputSchema = z.object({
  mode: flowModeSchema.default('assessment'),
  /** Local host, test=true or testing=true: stored assessment state is cleared. */
  testingMode: z.boolean().default(false),
  token: tokenCheckSchema.nullable().default(null),
  /** The ref parameter carried the community-platform marker. */
  communityReferral: z.boolean().default(false),
  knownSession: knownSessionSchema.nullable().default(null),
  /** The visitor's completed assessment, found by the server; shown again unless in Mirror mode or testing. */
  storedResult: flowResultSchema.nullable().default(null),
  /** Where the stored assessment's path ended, shown with it. */
  storedPath: completedPathSchema.nullable().default(null),
  /**
   * A diagnostic the visitor finished on the standalone page (found by the server among their own):
   * the flow opens on the survey for it.
   */
  standaloneDiagnostic: z.object({ id: z.uuid(), answers: diagnosticAnswersSchema }).nullable().default(null),
  /** How long the follow-ups wait (the server's configuration); 24 hours each when not given. */
  followUpDelays: z
    .object({
      bookingReminderMs: z.number().int().min(1).max(MAX_FOLLOW_UP_DELAY_MS),
      assessmentReminderMs: z.number().int().min(1).max(MAX_FOLLOW_UP_DELAY_MS),
    })
    .partial()
    .default({}),
});
/** What the assessment flow starts from; every field is optional. */
export type AssessmentFlowInput = z.input<typeof assessmentFlowInputSchema>;

/** What the visitor's browser may send to the assessment flow. */
export const assessmentFlowClientEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('CAPTURE_SUBMIT'), name: z.string().max(200), email: z.string().max(320) }),
  z.object({ type: z.literal('START_DIAGNOSTIC') }),
  z.object({
    type: z.literal('MIRROR_COMPLETED'),
    sessionId: z.uuid(),
    chat: z
      .array(mirrorTurnSchema)
      .min(1)
      .max(2 * MIRROR_TURN_LIMIT + 1),
    /** The visitor's server-run Mirror flow; the server takes its conversation, not `chat`. Required from a browser. */
    mirrorFlowId: z.uuid().optional(),
  }),
  z.object({
    type: z.literal('DIAGNOSTIC_COMPLETED'),
    answers: diagnosticAnswersSchema,
    /** The visitor's server-run diagnostic flow; the server takes its answers, not `answers`. Required from a browser. */
    diagnosticFlowId: z.uuid().optional(),
  }),
  z.object({ type: z.literal('SURVEY_SUBMITTED'), answers: surveyAnswersSchema }),
  z.object({ type: z.literal('EMAIL_SUBMIT'), email: z.string().max(320), name: z.string().max(200) }),
  z.object({ type: z.literal('EMAIL_EDITED') }),
  z.object({ type: z.literal('CONTINUE_WITHOUT_SAVING') }),
  z.object({ type: z.literal('CONTINUE') }),
  z.object({ type: z.literal('BACK_TO_RESULTS') }),
  z.object({ type: z.literal('RETAKE') }),
  z.object({ type: z.literal('PAY_DEPOSIT') }),
  z.object({ type: z.literal('PAY_FOR_HOMEWORK') }),
  z.object({ type: z.literal('CHOOSE_FREE_RESOURCES') }),
  z.object({ type: z.literal('PAYMENT_CANCELED') }),
  /** The visitor opened the booking page (a booking itself is reported by the provider: SESSION_BOOKED). */
  z.object({ type: z.literal('BOOK_SESSION') }),
  z.object({ type: z.literal('JOIN_COMMUNITY') }),
  /** Back to the results from where a path ended (deposit paid, homework sent, community joined). */
  z.object({ type: z.literal('VIEW_RESULTS') }),
  /** The testing panel's switch, for the flow on screen: taken only until the lead is captured. */
  z.object({ type: z.literal('SET_TESTING_MODE'), on: z.boolean() }),
]);

/**
 * What the flow's effects report back: sent by the server or a worker, never accepted from a
 * browser, because they say what was saved, graded, paid or emailed.
 */
export const assessmentFlowSystemEventSchema = z.discriminatedUnion('type', [
  /** `unconfirmed`: the address is a known lead's this browser has not proven; the flow is an attempt beside it (decision 0044). */
  z.object({ type: z.literal('LEAD_SAVED'), leadId: z.uuid(), unconfirmed: z.literal(true).optional() }),
  /** The link mailed to an attempt's address was followed: the flow is now that lead's (core/leads/confirm-address.ts). */
  z.object({ type: z.literal('ADDRESS_CONFIRMED') }),
  z.object({ type: z.literal('LEAD_FAILED') }),
  z.object({ type: z.literal('GRADED'), result: flowResultSchema }),
  z.object({ type: z.literal('CHECKOUT_OPENED'), url: checkoutUrlSchema }),
  z.object({ type: z.literal('PAYMENT_CONFIRMED'), paymentIntentId: paymentIntentIdSchema }),
  z.object({ type: z.literal('PAYMENT_FAILED'), reason: paymentFailureReasonSchema }),
  z.object({ type: z.literal('HOMEWORK_SENT') }),
  z.object({ type: z.literal('HOMEWORK_FAILED') }),
  /** The scheduling provider reported the strategy session booked (or rescheduled). */
  z.object({
    type: z.literal('SESSION_BOOKED'),
    provider: z.enum(['calendly', 'calcom']),
    startsAt: z.iso.datetime({ offset: true }).nullable(),
  }),
  /** The coach refunded the deposit (core/payments/refund.ts). */
  z.object({ type: z.literal('DEPOSIT_REFUNDED') }),
  /** The scheduling provider reported the booking cancelled, by the coach or the lead when it said which. */
  z.object({
    type: z.literal('SESSION_CANCELED'),
    provider: z.enum(['calendly', 'calcom']),
    canceledBy: z.enum(['coach', 'lead']).nullable().optional(),
  }),
]);

/** The follow-ups' own timers, raised by the flow itself after its delay (never from a browser or a worker). */
const assessmentFlowTimerEventSchema = z.discriminatedUnion('type', [
  /** A day (configurable) after a deposit: a reminder to book, unless booked by then. */
  z.object({ type: z.literal('BOOKING_REMINDER_DUE') }),
  /** A day (configurable) after the lead was captured: a reminder to finish, unless finished by then. */
  z.object({ type: z.literal('ASSESSMENT_REMINDER_DUE') }),
]);

/** Every event the assessment flow accepts. */
export const assessmentFlowEventSchema = z.discriminatedUnion('type', [
  ...assessmentFlowClientEventSchema.options,
  ...assessmentFlowSystemEventSchema.options,
  ...assessmentFlowTimerEventSchema.options,
]);
/** An event of the assessment flow. */
export type AssessmentFlowEvent = z.infer<typeof assessmentFlowEventSchema>;
