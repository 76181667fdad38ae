import { describe, expect, it } from 'vitest';
import { qualificationSurvey } from '../content/index.js';
import { chosenOption, surveyScore } from './survey-score.js';

describe('surveyScore', () => {
  it('is 100 for the best answer to every scored question', () => {
    // 10×0.35 + 10×0.25 + 10×0.25 + 10×0.15 = 10 of 10 points
    const best = { q1_investment: 'ready_now', q2_time: 'start_immediately', q3_urgency: 'critical', q4_mindset: 'challenge' };
    expect(surveyScore(qualificationSurvey, best)).toBe(100);
  });

  it('is points earned over points available', () => {
    const answers = {
      q1_investment: 'payment_terms', // 8 × 0.35 = 2.8
      q2_time: 'start_30_days', // 8 × 0.25 = 2.0
      q3_urgency: 'important', // 7 × 0.25 = 1.75
      q4_mindset: 'tools', // 7 × 0.15 = 1.05
      q5_success: 'A team that runs without me',
    };
    // (2.8 + 2.0 + 1.75 + 1.05) / 10 × 100 = 76
    expect(surveyScore(qualificationSurvey, answers)).toBe(76);
  });

  it('gives nothing for unanswered or unknown answers', () => {
    // (2.8 + 2.0) / 10 × 100 = 48
    expect(surveyScore(qualificationSurvey, { q1_investment: 'payment_terms', q2_time: 'start_30_days', q3_urgency: 'bogus' })).toBe(48);
    expect(surveyScore(qualificationSurvey, {})).toBe(0);
  });
});

describe('chosenOption', () => {
  it('finds the chosen option of a scored question', () => {
    expect(chosenOption(qualificationSurvey, { q4_mindset: 'validation' }, 'q4_mindset')?.flag).toBe('validation');
    expect(chosenOption(qualificationSurvey, { q5_success: 'text' }, 'q5_success')).toBeUndefined();
  });
});
