import { z } from 'zod';

/**
 * The qualification rules as data: every number and switch the grading's total and tier depend
 * on. A rule set is versioned; a result records the version it was graded under, and the coach can
 * try a proposed set on past leads before putting it in force (docs/decisions/0022).
 * The profile itself (dimensions, archetype, gaming checks) is not a rule the coach tunes.
 */
const points = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(0, `${field} must be between 0 and 100`)
    .max(100, `${field} must be between 0 and 100`);

const weight = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0, `${field} must be between 0 and 1`)
    .max(1, `${field} must be between 0 and 1`);

export const GradingRules = z.strictObject({
  /** How the three parts weigh in the total; they add up to 1. */
  partWeights: z
    .strictObject({
      diagnostic: weight('The diagnostic weight'),
      survey: weight('The survey weight'),
      mirror: weight('The Mirror weight'),
    })
    .refine((w) => Math.abs(w.diagnostic + w.survey + w.mirror - 1) < 1e-9, 'The three part weights must add up to 1'),
  /** The totals the tiers start at. */
  thresholds: z
    .strictObject({ bookCall: points('The book_call threshold'), homework: points('The homework threshold') })
    .refine((t) => t.homework <= t.bookCall, 'The homework threshold cannot be above the book_call threshold'),
  /** Survey modifiers applied to the weighted total. */
  modifiers: z.strictObject({
    /** Points off when the lead seeks validation rather than challenge (q4). */
    validationPenalty: points('The validation penalty'),
    /** Points added for critical urgency (q3) with the investment ready (q1). */
    urgencyBonus: points('The urgency bonus'),
    /** The highest total when the lead needs time to invest (q1) and cannot start within 3 months (q2). */
    delayCap: points('The delay cap'),
  }),
  /** Points off the diagnostic and composite scores for each contradiction the lead holds both sides of. */
  contradictionPenalties: z.strictObject({
    delegation_vs_control: points('The delegation-versus-control penalty'),
    ownership_vs_blame: points('The ownership-versus-blame penalty'),
    trust_vs_review: points('The trust-versus-review penalty'),
  }),
  /** What book_call needs besides the total, and whether a disqualifying answer forces nurture. */
  tierConditions: z.strictObject({
    bookCallNeedsReadyToInvest: z.boolean({ error: 'bookCallNeedsReadyToInvest must be true or false' }),
    bookCallNeedsReadyToStart: z.boolean({ error: 'bookCallNeedsReadyToStart must be true or false' }),
    disqualifiersForceNurture: z.boolean({ error: 'disqualifiersForceNurture must be true or false' }),
  }),
});
/** The qualification rules a result is graded under. */
export type GradingRules = z.infer<typeof GradingRules>;

/** A contradiction's key in GradingRules.contradictionPenalties. */
export type ContradictionId = keyof GradingRules['contradictionPenalties'];

/** A named, versioned rule set. */
export interface GradingRuleSet {
  version: string;
  rules: GradingRules;
}

/** The version of the rules the product shipped with; results stored before rule sets existed carry it. */
export const GRADING_VERSION = 'grading-1.0.0';

/** The rules the product shipped with: the specification's weights, thresholds and modifiers. */
export const DEFAULT_GRADING_RULES: GradingRules = {
  partWeights: { diagnostic: 0.35, survey: 0.35, mirror: 0.3 },
  thresholds: { bookCall: 70, homework: 50 },
  modifiers: { validationPenalty: 15, urgencyBonus: 10, delayCap: 49 },
  contradictionPenalties: { delegation_vs_control: 10, ownership_vs_blame: 15, trust_vs_review: 5 },
  tierConditions: { bookCallNeedsReadyToInvest: true, bookCallNeedsReadyToStart: true, disqualifiersForceNurture: true },
};

/** The built-in rule set, in force until a coach applies another. */
export const DEFAULT_RULE_SET: GradingRuleSet = { version: GRADING_VERSION, rules: DEFAULT_GRADING_RULES };

/** What a fired rule did: points added or taken, a cap, or a tier decision. */
export const FiredRule = z.object({
  /** A stable key, e.g. 'survey_part' or 'validation_penalty'. */
  rule: z.string(),
  /** The rule in plain words, with the numbers it used. */
  label: z.string(),
  /** Its effect on the total in points; null for a decision that is not a number of points (the tier). */
  points: z.number().nullable(),
});
/** One rule that fired while grading a lead. */
export type FiredRule = z.infer<typeof FiredRule>;
