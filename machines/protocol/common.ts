import { z } from 'zod';
import { Answer } from '../grading/types.js';

/**
 * The product's "simple" email check (something@something.something): deliberately loose, because the
 * mailbox, not a regex, is the real test, and the database CHECK is looser still.
 */
export const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** True when the text (after trimming) passes the simple email check. */
export function isSimpleEmail(text: string): boolean {
  return SIMPLE_EMAIL.test(text.trim());
}

/** True when the text has something other than whitespace. */
export function hasText(text: string): boolean {
  return text.trim().length > 0;
}

/** A trimmed email address that passes the simple check. */
export const emailSchema = z.string().trim().max(320).regex(SIMPLE_EMAIL, 'Please enter a valid email address');

/** Where a lead session came from. */
const leadSourceSchema = z.enum(['token', 'community', 'direct']);
/** Where a lead session came from. */
export type LeadSource = z.infer<typeof leadSourceSchema>;

/** The lead session kept per browser tab. */
export const leadSessionSchema = z.object({
  source: leadSourceSchema,
  leadToken: z.string().min(1).nullable(),
  leadId: z.uuid().nullable(),
  email: z.string().max(320).nullable(),
  name: z.string().max(200).nullable(),
  assessmentCompleted: z.boolean(),
  surveyCompleted: z.boolean(),
  mirrorSessionId: z.uuid().nullable(),
  paymentIntentId: z.string().min(1).max(255).nullable(),
  /**
   * The address typed is a known lead's that this browser has not proven (decision 0044): what it does
   * waits beside that lead until the link mailed there is followed. Absent for everyone else.
   */
  addressUnconfirmed: z.literal(true).optional(),
});
/** The lead session kept per browser tab. */
export type LeadSession = z.infer<typeof leadSessionSchema>;

/** The shorter lead-session form a returning tab already knows. */
export const knownSessionSchema = leadSessionSchema.pick({
  leadId: true,
  email: true,
  name: true,
  source: true,
  leadToken: true,
});
/** The shorter lead-session form. */
export type KnownSession = z.infer<typeof knownSessionSchema>;

/** Which screen the assessment modal opened as. */
export const flowModeSchema = z.enum(['assessment', 'mirror']);
/** Which screen the assessment modal opened as. */
export type FlowMode = z.infer<typeof flowModeSchema>;

/** The three next steps a result routes to. */
export const tierSchema = z.enum(['book_call', 'homework', 'nurture']);
/** A qualification tier. */
export type Tier = z.infer<typeof tierSchema>;

/**
 * One diagnostic answer as the diagnostic machine records it and grading reads it: value, type,
 * responseTime in ms, confidence for a vignette follow-up, and timedOut when the clock answered.
 * Grading owns the shape, so the two can never drift.
 */
const recordedAnswerSchema = Answer;
/** One recorded diagnostic answer. */
export type RecordedAnswer = Answer;

/** Every answer of one diagnostic, keyed by item id. */
export const diagnosticAnswersSchema = z.record(z.string().min(1).max(60), recordedAnswerSchema);
/** Every answer of one diagnostic, keyed by item id. */
export type DiagnosticAnswers = z.infer<typeof diagnosticAnswersSchema>;

/** Survey answers keyed by question id: an option id, or free text for the text questions. */
export const surveyAnswersSchema = z.record(z.string().min(1).max(60), z.string().max(5000));
/** Survey answers keyed by question id. */
export type SurveyAnswers = z.infer<typeof surveyAnswersSchema>;

/** One Mirror chat turn. */
export const mirrorTurnSchema = z.object({
  role: z.enum(['user', 'mirror']),
  content: z.string().min(1).max(4000),
});
/** One Mirror chat turn. */
export type MirrorTurn = z.infer<typeof mirrorTurnSchema>;

/** A toast or inline message a machine decided to show; the copy is the spec's. */
export interface Notice {
  title: string | null;
  description: string | null;
}
