import { z } from 'zod';
import type { Archetype, ArchetypeName } from '../content/archetype-schema.js';
import type { Dimension, DisplayDimension } from '../content/dimensions.js';
import type { FiredRule } from './rules.js';

const answerBase = {
  /** Milliseconds the visitor spent on the screen. */
  responseTime: z.number().nonnegative(),
  /** Set when the countdown ran out and the machine answered for the visitor. */
  timedOut: z.boolean().optional(),
};

/** A recorded likert answer (1-5). */
const LikertAnswer = z.object({ type: z.literal('likert'), value: z.number().int().min(1).max(5), ...answerBase });

/** A recorded vignette answer: the chosen option id and the 1-5 confidence follow-up. */
const VignetteAnswer = z.object({
  type: z.literal('vignette'),
  value: z.string().min(1),
  confidence: z.number().int().min(1).max(5).optional(),
  ...answerBase,
});

/** A recorded ranking: item ids from first priority to last. */
const RankingAnswer = z.object({ type: z.literal('ranking'), value: z.array(z.string().min(1)).min(1), ...answerBase });

/** One recorded answer, keyed in GradeInput.answers by its screen id. */
export const Answer = z.discriminatedUnion('type', [LikertAnswer, VignetteAnswer, RankingAnswer]);
/** One recorded answer. */
export type Answer = z.infer<typeof Answer>;

/** One turn of the Mirror chat. */
export const MirrorTurn = z.object({ role: z.enum(['user', 'mirror']), content: z.string() });
/** One turn of the Mirror chat. */
export type MirrorTurn = z.infer<typeof MirrorTurn>;

/** What gradeAssessment needs; the server validates request bodies with this. */
export const GradeInput = z.object({
  answers: z.record(z.string(), Answer),
  /** Scored questions map to an option id, free-text questions to the visitor's text. */
  survey: z.record(z.string(), z.string()),
  mirrorChat: z.array(MirrorTurn),
  /** The bank the answers were given on; defaults to the current diagnosticBank. */
  bankVersion: z.string().optional(),
});
/** What gradeAssessment needs. */
export type GradeInput = z.infer<typeof GradeInput>;
/** A map of screen id to recorded answer. */
export type Answers = GradeInput['answers'];
/** A map of survey question id to option id or free text. */
export type SurveyAnswers = GradeInput['survey'];

/** The three next steps. */
export const Tier = z.enum(['book_call', 'homework', 'nurture']);
/** A next-step tier. */
export type Tier = z.infer<typeof Tier>;

/** The older likert-average labels, plus the canned result's label below both thresholds. */
export type LeadershipLevel = 'Established Leader' | 'Developing Leader' | 'Emerging Leader';

/** The archetype's copy plus the rule that chose it, for the results page and the coach. */
interface ArchetypeDetails extends Archetype {
  /** Plain-words reason this archetype was chosen. */
  matchedBecause: string;
}

/** The result object, common to graded and canned results. */
export interface AssessmentResult {
  archetype: ArchetypeName | LeadershipLevel;
  narrative: string;
  /** The results page's dimensions, 0-100; a canned result carries only some. */
  scores: Partial<Record<DisplayDimension, number>>;
  keyInsights: string[];
  archetypeDetails: ArchetypeDetails | null;
  /** The dimension-weighted profile, 0-100. */
  compositeScore: number;
  qualification: Tier;
  /** Share of the diagnostic's screens the visitor answered in time, 0-1. */
  confidence: number;
  /** Every rule that fired and what it did, in order, in plain words. */
  qualificationReasoning: string[];
  /** The rules that fired with their points, for the coach; absent from canned results and results graded before it existed. */
  rulesFired?: FiredRule[];
  /** Set when the result did not come from the normal server grading. */
  fallback: boolean;
  /** The bank the answers were graded against; null when nothing was graded. */
  bankVersion: string | null;
  gradingVersion: string;
}

/** What gradeAssessment returns: the result object plus the qualification's working. */
export interface GradeResult extends AssessmentResult {
  archetype: ArchetypeName;
  archetypeDetails: ArchetypeDetails;
  scores: Record<DisplayDimension, number>;
  /** The canonical model, 1-10 each; scores is a view of it. */
  dimensions: Record<Dimension, number>;
  leadershipLevel: LeadershipLevel;
  totalScore: number;
  diagnosticScore: number;
  surveyScore: number;
  mirrorScore: number;
  tier: Tier;
  gamingDetected: boolean;
  requiresRetake: boolean;
  rulesFired: FiredRule[];
  /** The retake prompt, present only when gamingDetected. */
  message?: string;
  bankVersion: string;
}
