import { z } from 'zod';
import { id, text, version } from './schema-fields.js';

/**
 * What an option means to the qualification rules, which read these flags rather
 * than option ids: 'disqualify' forces nurture; 'delay' on both q1 and q2 caps the total at 49;
 * 'validation' costs 15; 'critical' adds 10 when q1 is 'ready'; 'ready' on both q1 and q2 is
 * required for book_call.
 */
export const SurveyFlag = z.enum(['disqualify', 'delay', 'validation', 'critical', 'ready']);
/** What a survey option does to qualification. */
export type SurveyFlag = z.infer<typeof SurveyFlag>;

/** One answer to a scored survey question: it earns score × weight points. */
export const SurveyOption = z.object({
  id,
  label: text,
  score: z.number().min(0),
  weight: z.number().positive(),
  flag: SurveyFlag.optional(),
});
/** One answer to a scored survey question. */
export type SurveyOption = z.infer<typeof SurveyOption>;

/** A multiple-choice survey question whose answer counts towards the survey score. */
export const ScoredQuestion = z.object({
  kind: z.literal('choice'),
  id,
  prompt: text,
  required: z.boolean(),
  options: z.array(SurveyOption).min(2),
});
/** A scored multiple-choice survey question. */
export type ScoredQuestion = z.infer<typeof ScoredQuestion>;

/** A free-text survey question; it never changes the score. */
const TextQuestion = z.object({
  kind: z.literal('text'),
  id,
  prompt: text,
  required: z.boolean(),
  placeholder: text.optional(),
});
/** A free-text survey question. */
type TextQuestion = z.infer<typeof TextQuestion>;

/** The qualification survey shown after the diagnostic. */
export const QualificationSurvey = z.object({
  version,
  questions: z.array(z.discriminatedUnion('kind', [ScoredQuestion, TextQuestion])).min(1),
});
/** The qualification survey. */
export type QualificationSurvey = z.infer<typeof QualificationSurvey>;
