import { describe, expect, it } from 'vitest';
import { qualificationSurvey as survey } from '../content/index.js';
import {
  delayCapApplies,
  disqualifyingAnswers,
  readyToInvest,
  readyToStart,
  urgencyAdjustment,
  validationAdjustment,
} from './survey-rules.js';

describe('disqualifyingAnswers', () => {
  it("disqualifies on q1 'not_ready' or q2 'schedule_full'", () => {
    expect(disqualifyingAnswers(survey, { q1_investment: 'not_ready' }).map((o) => o.id)).toEqual(['not_ready']);
    expect(disqualifyingAnswers(survey, { q2_time: 'schedule_full' }).map((o) => o.id)).toEqual(['schedule_full']);
    expect(disqualifyingAnswers(survey, { q1_investment: 'not_ready', q2_time: 'schedule_full' })).toHaveLength(2);
  });

  it('does not disqualify anything else', () => {
    expect(disqualifyingAnswers(survey, { q1_investment: 'need_time', q2_time: 'not_3_months', q4_mindset: 'validation' })).toEqual([]);
  });
});

describe('delayCapApplies', () => {
  it("caps only q1 'need_time' with q2 'not_3_months'", () => {
    expect(delayCapApplies(survey, { q1_investment: 'need_time', q2_time: 'not_3_months' })).toBe(true);
    expect(delayCapApplies(survey, { q1_investment: 'need_time', q2_time: 'start_30_days' })).toBe(false);
    expect(delayCapApplies(survey, { q1_investment: 'ready_now', q2_time: 'not_3_months' })).toBe(false);
  });
});

describe('validationAdjustment', () => {
  it("is -15 for q4 'validation', else 0", () => {
    expect(validationAdjustment(survey, { q4_mindset: 'validation' })).toBe(-15);
    expect(validationAdjustment(survey, { q4_mindset: 'challenge' })).toBe(0);
  });
});

describe('urgencyAdjustment', () => {
  it("is +10 for q3 'critical' with q1 ready_now or payment_terms", () => {
    expect(urgencyAdjustment(survey, { q3_urgency: 'critical', q1_investment: 'ready_now' })).toBe(10);
    expect(urgencyAdjustment(survey, { q3_urgency: 'critical', q1_investment: 'payment_terms' })).toBe(10);
  });

  it('is 0 when either half is missing', () => {
    expect(urgencyAdjustment(survey, { q3_urgency: 'critical', q1_investment: 'need_time' })).toBe(0);
    expect(urgencyAdjustment(survey, { q3_urgency: 'important', q1_investment: 'ready_now' })).toBe(0);
  });
});

describe('readiness', () => {
  it('reads q1 and q2', () => {
    expect(readyToInvest(survey, { q1_investment: 'payment_terms' })).toBe(true);
    expect(readyToInvest(survey, { q1_investment: 'need_time' })).toBe(false);
    expect(readyToStart(survey, { q2_time: 'start_immediately' })).toBe(true);
    expect(readyToStart(survey, { q2_time: 'not_3_months' })).toBe(false);
    expect(readyToStart(survey, {})).toBe(false);
  });
});
