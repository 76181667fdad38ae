import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  OLDER_SURVEY_MAX_POINTS,
  describeOlderSurveyTier,
  isOlderSurvey,
  olderAuthoritySchema,
  olderBudgetSchema,
  olderSurveySchema,
  olderSurveyScore,
  olderSurveyTier,
  type OlderSurvey,
} from './older-survey.js';

const best: OlderSurvey = {
  current_role: 'executive',
  team_size: '50+',
  urgency_pain: 'critical',
  commitment_level: 'all_in',
  investment_readiness: 'ready',
  budget: 'high',
  authority: 'D',
  prior_coaching: 'none',
};

describe('the older eight-answer survey', () => {
  it('gives each scored answer at most its maximum: role 20, team size 15, urgency 25, commitment 30, investment 10', () => {
    expect(OLDER_SURVEY_MAX_POINTS).toEqual({
      current_role: 20,
      team_size: 15,
      urgency_pain: 25,
      commitment_level: 30,
      investment_readiness: 10,
    });
    // the best answers: 20 + 15 + 25 + 30 + 10 = 100
    expect(olderSurveyScore(best)).toEqual({ points: OLDER_SURVEY_MAX_POINTS, total: 100 });
  });

  it('adds the points of a middling lead by hand', () => {
    const survey: OlderSurvey = {
      ...best,
      current_role: 'manager', // 14
      team_size: '6-15', // 10
      urgency_pain: 'moderate', // 12
      commitment_level: 'interested', // 15
      investment_readiness: 'considering', // 5
    };
    // 14 + 10 + 12 + 15 + 5 = 56
    expect(olderSurveyScore(survey).total).toBe(56);
  });

  it('gives the lowest answers 5 + 0 + 5 + 5 + 0 = 15', () => {
    const survey: OlderSurvey = {
      ...best,
      current_role: 'individual_contributor',
      team_size: 'none',
      urgency_pain: 'low',
      commitment_level: 'exploring',
      investment_readiness: 'not_now',
    };
    expect(olderSurveyScore(survey).total).toBe(15);
  });

  it.each([
    ['high', 'D', 'book_call'],
    ['high', 'P', 'book_call'],
    ['high', 'M', 'nurture'],
    ['high', 'L', 'nurture'],
    ['high', 'N', 'nurture'],
    ['mid', 'L', 'homework'],
    ['mid', 'M', 'homework'],
    ['mid', 'D', 'homework'],
    ['mid', 'P', 'homework'],
    ['mid', 'N', 'nurture'],
    ['low', 'D', 'nurture'],
    ['low', 'P', 'nurture'],
  ] as const)('budget %s with authority %s gives %s', (budget, authority, tier) => {
    expect(olderSurveyTier({ budget, authority })).toBe(tier);
    expect(describeOlderSurveyTier({ budget, authority })).toMatch(
      new RegExp(`^Tier ${tier} \\(older survey\\): budget ${budget}, authority ${authority}`),
    );
  });

  it('the tier ignores the points: the best-scoring answers with a low budget are nurture', () => {
    expect(olderSurveyTier({ ...best, budget: 'low' })).toBe('nurture');
  });

  it('tells the older shape from the current survey and refuses unknown values and extra answers', () => {
    expect(isOlderSurvey(best)).toBe(true);
    expect(isOlderSurvey({ q1_investment: 'ready', q2_time: 'now' })).toBe(false);
    expect(isOlderSurvey({ ...best, budget: 'huge' })).toBe(false);
    expect(isOlderSurvey({ ...best, q1_investment: 'ready' })).toBe(false);
    const { authority: _dropped, ...missing } = best;
    expect(olderSurveySchema.safeParse(missing).error?.issues[0]?.path).toEqual(['authority']);
  });

  it('for any valid answers: a total between 0 and 100, no answer over its maximum, and a tier decided by budget and authority alone', () => {
    const options = olderSurveySchema.shape;
    const survey = fc.record({
      current_role: fc.constantFrom(...options.current_role.options),
      team_size: fc.constantFrom(...options.team_size.options),
      urgency_pain: fc.constantFrom(...options.urgency_pain.options),
      commitment_level: fc.constantFrom(...options.commitment_level.options),
      investment_readiness: fc.constantFrom(...options.investment_readiness.options),
      budget: fc.constantFrom(...olderBudgetSchema.options),
      authority: fc.constantFrom(...olderAuthoritySchema.options),
      prior_coaching: fc.constantFrom(...options.prior_coaching.options),
    });
    fc.assert(
      fc.property(survey, survey, (answers, other) => {
        const { total, points } = olderSurveyScore(answers);
        expect(total).toBeGreaterThanOrEqual(0);
        expect(total).toBeLessThanOrEqual(100);
        for (const [field, max] of Object.entries(OLDER_SURVEY_MAX_POINTS))
          expect(points[field as keyof typeof points]).toBeLessThanOrEqual(max);
        const sameDecision = { ...other, budget: answers.budget, authority: answers.authority };
        expect(olderSurveyTier(sameDecision)).toBe(olderSurveyTier(answers));
      }),
    );
  });
});
