import { z } from 'zod';
import type { Tier } from './types.js';

/*
 * The older, eight-answer survey shape, still accepted beside the seven-question survey. Five
 * answers carry points (role 20, team size 15, urgency 25, commitment 30, investment 10: 100 in
 * all); budget and authority decide the tier; prior coaching is context for the coach only.
 */

/** Points of each option, the best option of a question worth its maximum. */
const ROLE_POINTS = { individual_contributor: 5, team_lead: 10, manager: 14, director: 17, executive: 20, founder: 20 } as const;
const TEAM_SIZE_POINTS = { none: 0, '1-5': 5, '6-15': 10, '16-50': 13, '50+': 15 } as const;
const URGENCY_POINTS = { low: 5, moderate: 12, high: 20, critical: 25 } as const;
const COMMITMENT_POINTS = { exploring: 5, interested: 15, committed: 25, all_in: 30 } as const;
const INVESTMENT_POINTS = { not_now: 0, considering: 5, ready: 10 } as const;

const keysOf = <T extends Record<string, number>>(points: T) => Object.keys(points) as [keyof T & string, ...(keyof T & string)[]];

/** The budget a lead has for coaching. */
export const olderBudgetSchema = z.enum(['low', 'mid', 'high']);
/**
 * Who decides on the spend: N nobody they can name, L they can recommend it, M they decide with
 * their manager, D they decide on their organisation's budget, P they pay personally.
 */
export const olderAuthoritySchema = z.enum(['N', 'L', 'M', 'D', 'P']);

export const olderSurveySchema = z.strictObject({
  current_role: z.enum(keysOf(ROLE_POINTS)),
  team_size: z.enum(keysOf(TEAM_SIZE_POINTS)),
  urgency_pain: z.enum(keysOf(URGENCY_POINTS)),
  commitment_level: z.enum(keysOf(COMMITMENT_POINTS)),
  investment_readiness: z.enum(keysOf(INVESTMENT_POINTS)),
  budget: olderBudgetSchema,
  authority: olderAuthoritySchema,
  prior_coaching: z.enum(['none', 'some', 'extensive']),
});
export type OlderSurvey = z.infer<typeof olderSurveySchema>;

/** The most each scored answer can give. */
export const OLDER_SURVEY_MAX_POINTS = {
  current_role: 20,
  team_size: 15,
  urgency_pain: 25,
  commitment_level: 30,
  investment_readiness: 10,
} as const;

type ScoredField = keyof typeof OLDER_SURVEY_MAX_POINTS;

/** The points of each scored answer and their total, out of 100. */
export interface OlderSurveyScore {
  points: Record<ScoredField, number>;
  total: number;
}

export function olderSurveyScore(survey: OlderSurvey): OlderSurveyScore {
  const points: Record<ScoredField, number> = {
    current_role: ROLE_POINTS[survey.current_role],
    team_size: TEAM_SIZE_POINTS[survey.team_size],
    urgency_pain: URGENCY_POINTS[survey.urgency_pain],
    commitment_level: COMMITMENT_POINTS[survey.commitment_level],
    investment_readiness: INVESTMENT_POINTS[survey.investment_readiness],
  };
  return { points, total: Object.values(points).reduce((sum, value) => sum + value, 0) };
}

/**
 * The older survey's tier, from budget and authority alone: a high budget someone decides on
 * (D or P) books a call; a mid budget with any named authority (L, M, D or P) gets homework;
 * anything else is nurture.
 */
export function olderSurveyTier(survey: Pick<OlderSurvey, 'budget' | 'authority'>): Tier {
  if (survey.budget === 'high' && (survey.authority === 'D' || survey.authority === 'P')) return 'book_call';
  if (survey.budget === 'mid' && survey.authority !== 'N') return 'homework';
  return 'nurture';
}

/** Why the older survey gave its tier, in plain words for the coach. */
export function describeOlderSurveyTier(survey: Pick<OlderSurvey, 'budget' | 'authority'>): string {
  const tier = olderSurveyTier(survey);
  const given = `budget ${survey.budget}, authority ${survey.authority}`;
  if (tier === 'book_call') return `Tier book_call (older survey): ${given}: a high budget its owner decides on (D or P).`;
  if (tier === 'homework') return `Tier homework (older survey): ${given}: a mid budget with authority L, M, D or P.`;
  return `Tier nurture (older survey): ${given}: neither a high budget decided by D or P nor a mid budget with a named authority.`;
}

/** True for answers in the older eight-answer shape (the current survey's ids start with q). */
export function isOlderSurvey(answers: unknown): answers is OlderSurvey {
  return olderSurveySchema.safeParse(answers).success;
}
