import { describe, expect, it } from 'vitest';
import { diagnosticScreens } from '../content/index.js';
import { gradeAssessment, GradeInput, UnknownBankVersionError, type Answers } from './index.js';

/**
 * Every likert statement answered on the agreeing-with-strength side: 4 on normal items, 2 on
 * reverse items, both evidence +0.5. Every dimension then scores 5 + 5 × 0.5 = 7.5, and since
 * b2 and tr3 are reverse items answered 2, no contradiction fires.
 */
function considered(overrides: Answers = {}): Answers {
  const answers: Answers = {};
  for (const s of diagnosticScreens) {
    if (s.type === 'likert') answers[s.id] = { type: 'likert', value: s.item.reverse ? 2 : 4, responseTime: 5_000 };
  }
  return { ...answers, ...overrides };
}

const readySurvey = {
  q1_investment: 'payment_terms',
  q2_time: 'start_30_days',
  q3_urgency: 'important',
  q4_mindset: 'tools',
  q5_success: 'A team that runs without me',
};

describe('gradeAssessment: worked examples', () => {
  it('grades a solid profile with a ready-but-not-urgent survey as homework', () => {
    const result = gradeAssessment({ answers: considered(), survey: readySurvey, mirrorChat: [] });
    // all ten dimensions 7.5; mean of the six = 7.5; (7.5 - 1) / 9 × 100 = 72.22 -> 72.2
    expect(result.diagnosticScore).toBe(72.2);
    // 2.8 + 2.0 + 1.75 + 1.05 = 7.6 of 10 points -> 76
    expect(result.surveyScore).toBe(76);
    // no Mirror conversation -> 50
    expect(result.mirrorScore).toBe(50);
    // 0.35 × 72.2 + 0.35 × 76 + 0.30 × 50 = 25.27 + 26.6 + 15 = 66.87 -> 67, which is 50-69
    expect(result.totalScore).toBe(67);
    expect(result.tier).toBe('homework');
    expect(result.qualification).toBe('homework');
    // weighted 7.5 -> 72.2; each results-page score 72.2 -> 72
    expect(result.compositeScore).toBe(72.2);
    expect(result.scores).toEqual({ LER: 72, DCR: 72, TBR: 72, OAD: 72, VIS: 72, FAD: 72 });
    // TrustDelta and DCR at least 7
    expect(result.archetype).toBe('Trust-Builder Architect');
    expect(result.archetypeDetails.actions).toHaveLength(3);
    // adjusted likert values all 4 -> average 4
    expect(result.leadershipLevel).toBe('Established Leader');
    // 17 of 22 screens answered
    expect(result.confidence).toBe(0.77);
    expect(result).toMatchObject({ gamingDetected: false, requiresRetake: false, fallback: false, bankVersion: '2.0.0' });
    expect(result).not.toHaveProperty('message');
    expect(result.gradingVersion).toMatch(/^grading-/);
    expect(result.qualificationReasoning).toEqual([
      'Diagnostic score 72.2: the mean of Discipline, Resilience, SelfAware, TrustDelta, LER, OwnershipFault is 7.5 on the 1-10 scale, mapped onto 0-100.',
      'Survey score 76 of 100 from the scored questions.',
      'Mirror score 50: no adjustments from the Mirror conversation.',
      'Weighted total 67 = 0.35 × 72.2 + 0.35 × 76 + 0.3 × 50.',
      'Tier homework: total 67 is between 50 and 69.',
      'Archetype Trust-Builder Architect: TrustDelta and DCR both at least 7.',
    ]);
  });

  it('adds 10 for critical urgency with the money ready, reaching book_call', () => {
    const survey = {
      q1_investment: 'ready_now',
      q2_time: 'start_immediately',
      q3_urgency: 'critical',
      q4_mindset: 'tools',
      q5_success: 'x',
    };
    const result = gradeAssessment({ answers: considered(), survey, mirrorChat: [] });
    // 3.5 + 2.5 + 2.5 + 1.05 = 9.55 -> 95.5
    expect(result.surveyScore).toBe(95.5);
    // 0.35 × 72.2 + 0.35 × 95.5 + 0.30 × 50 = 25.27 + 33.425 + 15 = 73.695 -> 74; + 10 = 84
    expect(result.totalScore).toBe(84);
    expect(result.tier).toBe('book_call');
    expect(result.qualificationReasoning).toContain('Critical urgency (q3) with the investment ready (q1): +10, total 84.');
  });

  it('takes 15 for a validation-seeking mindset', () => {
    const survey = { ...readySurvey, q1_investment: 'ready_now', q2_time: 'start_immediately', q4_mindset: 'validation' };
    const result = gradeAssessment({ answers: considered(), survey, mirrorChat: [] });
    // 3.5 + 2.5 + 1.75 + 0.3 = 8.05 -> 80.5
    // 0.35 × 72.2 + 0.35 × 80.5 + 0.30 × 50 = 25.27 + 28.175 + 15 = 68.445 -> 68; - 15 = 53
    expect(result.totalScore).toBe(53);
    expect(result.tier).toBe('homework');
    expect(result.qualificationReasoning).toContain('Seeks validation rather than challenge (q4): −15, total 53.');
  });

  it('caps need_time with not_3_months at 49', () => {
    const survey = {
      q1_investment: 'need_time',
      q2_time: 'not_3_months',
      q3_urgency: 'critical',
      q4_mindset: 'challenge',
      q5_success: 'x',
    };
    const result = gradeAssessment({ answers: considered(), survey, mirrorChat: [] });
    // 1.4 + 0.75 + 2.5 + 1.5 = 6.15 -> 61.5; no urgency bonus because q1 is not ready
    // 0.35 × 72.2 + 0.35 × 61.5 + 0.30 × 50 = 25.27 + 21.525 + 15 = 61.795 -> 62, capped to 49
    expect(result.totalScore).toBe(49);
    expect(result.tier).toBe('nurture');
    expect(result.qualificationReasoning).toContain(
      'Needs time to invest (q1) and cannot start within 3 months (q2): total capped at 49 (was 62).',
    );
  });

  it('auto-disqualifies q1 not_ready to nurture whatever the score', () => {
    const survey = {
      q1_investment: 'not_ready',
      q2_time: 'start_immediately',
      q3_urgency: 'critical',
      q4_mindset: 'challenge',
      q5_success: 'x',
    };
    const mirrorChat = [
      {
        role: 'user' as const,
        content: 'Honestly I should have spoken up earlier. Last week I realised I keep doing this. What would you do?',
      },
    ];
    const result = gradeAssessment({ answers: considered(), survey, mirrorChat });
    // 0 + 2.5 + 2.5 + 1.5 = 6.5 -> 65; Mirror 50 + 10 + 5 + 10 + 15 + 10 = 100
    // 0.35 × 72.2 + 0.35 × 65 + 0.30 × 100 = 25.27 + 22.75 + 30 = 78.02 -> 78
    expect(result.totalScore).toBe(78);
    expect(result.tier).toBe('nurture');
    expect(result.qualificationReasoning).toContain(
      "Auto-disqualified by the answer 'not_ready' (This is not an investment I can make.): nurture whatever the score.",
    );
    expect(result.qualificationReasoning).toContain(
      'Mirror score 100: 50, then takes ownership +10, asks questions +5, shows vulnerability +10, reflects on learning +15, names patterns +10.',
    );
  });

  it('subtracts contradiction penalties from the diagnostic and composite scores', () => {
    // own1 4 and b2 4 (reverse: 6 - 4 = 2, evidence -0.5): both held, so -15.
    // OwnershipFault evidence: b2 -0.5, own1 +0.5 -> mean 0 -> 5; the other nine stay 7.5.
    const result = gradeAssessment({
      answers: considered({ b2: { type: 'likert', value: 4, responseTime: 5_000 } }),
      survey: readySurvey,
      mirrorChat: [],
    });
    expect(result.dimensions.OwnershipFault).toBe(5);
    // six-mean (7.5 × 5 + 5) / 6 = 7.0833; (7.0833 - 1) / 9 × 100 = 67.59; - 15 = 52.59 -> 52.6
    expect(result.diagnosticScore).toBe(52.6);
    // weighted: 0.2×7.5 + 0.2×7.5 + 0.15×7.5 + 0.2×5 + 0.15×7.5 + 0.1×7.5 = 7.0; (7 - 1) / 9 × 100 = 66.67; - 15 = 51.7
    expect(result.compositeScore).toBe(51.7);
    // 0.35 × 52.6 + 0.35 × 76 + 0.30 × 50 = 18.41 + 26.6 + 15 = 60.01 -> 60
    expect(result.totalScore).toBe(60);
    expect(result.gamingDetected).toBe(false);
    expect(result.qualificationReasoning[0]).toBe(
      'Contradiction: the lead agreed that they look first at their own part in a miss (own1) and that misses are usually someone on the team not doing their part (b2); −15 on the diagnostic and composite scores.',
    );
  });

  it('detects straight-lining and asks for a retake with the default message', () => {
    const answers: Answers = Object.fromEntries(
      diagnosticScreens.filter((s) => s.type === 'likert').map((s) => [s.id, { type: 'likert', value: 5, responseTime: 3_000 }]),
    );
    const result = gradeAssessment({ answers, survey: readySurvey, mirrorChat: [] });
    // 5 everywhere holds own1 with b2 and tr1 with tr3: two contradictions as well
    expect(result).toMatchObject({
      gamingDetected: true,
      requiresRetake: true,
      message: 'Please take your time to answer thoughtfully. The assessment requires more consideration.',
    });
    expect(result.qualificationReasoning).toContain(
      'Gaming detected (every likert statement got the same answer; 2 pairs of answers contradict each other): a retake is required.',
    );
  });

  it('counts timed-out and rushed answers in the reasoning and the confidence', () => {
    const answers = considered({
      b1: { type: 'likert', value: 5, responseTime: 1_200 },
      vig_dc: { type: 'vignette', value: 'dc_partial', responseTime: 50_000, timedOut: true },
      vig_scale: { type: 'vignette', value: 'scale_leads', responseTime: 20_000, confidence: 4 },
    });
    const result = gradeAssessment({ answers, survey: readySurvey, mirrorChat: [] });
    // LER: b1 alone, 1 × 0.95 = 0.95; 5 + 4.75 = 9.75
    expect(result.dimensions.LER).toBe(9.75);
    // DCR: dcr1 +0.5, dcr2 +0.5, scale_leads +1 -> mean 0.6667; 5 + 3.33 = 8.33
    expect(result.dimensions.DCR).toBe(8.33);
    // 18 of 22 screens answered in time (17 likert + vig_scale)
    expect(result.confidence).toBe(0.82);
    expect(result.qualificationReasoning.slice(0, 2)).toEqual([
      '1 answer came in under 2 seconds and counted 5% less toward the profile.',
      '1 question timed out; the automatic answers gave no evidence.',
    ]);
  });

  it('marks results graded as a fallback', () => {
    expect(gradeAssessment({ answers: {}, survey: {}, mirrorChat: [] }, { fallback: true }).fallback).toBe(true);
  });
});

describe('gradeAssessment: banks', () => {
  it('grades answers taken on v1', () => {
    const answers: Answers = { l1: { type: 'likert', value: 5, responseTime: 5_000 } };
    const result = gradeAssessment({ answers, survey: {}, mirrorChat: [], bankVersion: '1.0.0' });
    expect(result.bankVersion).toBe('1.0.0');
    expect(result.dimensions.LER).toBe(10);
    // v1 has 12 screens, one answered
    expect(result.confidence).toBe(0.08);
  });

  it('falls back to the archetype rule on the built-in bank with nothing answered', () => {
    const result = gradeAssessment({ answers: {}, survey: {}, mirrorChat: [], bankVersion: '0.0.0' });
    // every dimension 5: LER 5 >= TrustDelta 5
    expect(result.archetype).toBe('Command-First Driver');
    // diagnostic 44.4, survey 0, mirror 50: 15.54 + 0 + 15 = 30.54 -> 31
    expect(result.totalScore).toBe(31);
    expect(result.tier).toBe('nurture');
  });

  it('refuses a bank version it does not carry', () => {
    expect(() => gradeAssessment({ answers: {}, survey: {}, mirrorChat: [], bankVersion: '3.0.0' })).toThrow(UnknownBankVersionError);
  });
});

describe('GradeInput', () => {
  it('accepts the shape', () => {
    const input = {
      answers: {
        b1: { type: 'likert', value: 4, responseTime: 3_000 },
        vig_dc: { type: 'vignette', value: 'dc_convene', responseTime: 20_000, confidence: 3 },
        priority_ranking: { type: 'ranking', value: ['vision', 'capability'], responseTime: 9_000 },
      },
      survey: { q1_investment: 'ready_now', q5_success: 'free text' },
      mirrorChat: [{ role: 'user', content: 'hi' }],
    };
    expect(GradeInput.parse(input)).toEqual(input);
  });

  it('rejects out-of-range values', () => {
    const base = { survey: {}, mirrorChat: [] };
    expect(GradeInput.safeParse({ ...base, answers: { b1: { type: 'likert', value: 6, responseTime: 1 } } }).success).toBe(false);
    expect(GradeInput.safeParse({ ...base, answers: { b1: { type: 'likert', value: 3, responseTime: -1 } } }).success).toBe(false);
    expect(
      GradeInput.safeParse({ ...base, answers: { v: { type: 'vignette', value: 'x', confidence: 0, responseTime: 1 } } }).success,
    ).toBe(false);
    expect(GradeInput.safeParse({ answers: {}, survey: {}, mirrorChat: [{ role: 'coach', content: 'x' }] }).success).toBe(false);
  });
});

describe('gradeAssessment: the older eight-answer survey', () => {
  const older = {
    current_role: 'manager', // 14 of 20
    team_size: '6-15', // 10 of 15
    urgency_pain: 'high', // 20 of 25
    commitment_level: 'committed', // 25 of 30
    investment_readiness: 'ready', // 10 of 10
    budget: 'high',
    authority: 'P',
    prior_coaching: 'some',
  };

  it('scores it with its own maxima and tiers it by budget and authority', () => {
    const result = gradeAssessment({ answers: considered(), survey: older, mirrorChat: [] });
    // 14 + 10 + 20 + 25 + 10 = 79
    expect(result.surveyScore).toBe(79);
    // 0.35 × 72.2 + 0.35 × 79 + 0.30 × 50 = 25.27 + 27.65 + 15 = 67.92 -> 68: homework by the current rule,
    // but budget high with authority P is book_call by the older survey's own rule
    expect(result.totalScore).toBe(68);
    expect(result.tier).toBe('book_call');
    expect(result.qualification).toBe('book_call');
    expect(result.qualificationReasoning).toContain(
      'Survey score 79 of 100 from the older eight-answer survey: current_role 14/20, team_size 10/15, urgency_pain 20/25, commitment_level 25/30, investment_readiness 10/10.',
    );
    expect(result.qualificationReasoning).toContain(
      'Tier book_call (older survey): budget high, authority P: a high budget its owner decides on (D or P).',
    );
  });

  it('gives a mid budget with a named authority homework and anything else nurture, whatever the points', () => {
    expect(gradeAssessment({ answers: considered(), survey: { ...older, budget: 'mid', authority: 'L' }, mirrorChat: [] }).tier).toBe(
      'homework',
    );
    expect(gradeAssessment({ answers: considered(), survey: { ...older, budget: 'high', authority: 'M' }, mirrorChat: [] }).tier).toBe(
      'nurture',
    );
    expect(gradeAssessment({ answers: considered(), survey: { ...older, budget: 'low', authority: 'D' }, mirrorChat: [] }).tier).toBe(
      'nurture',
    );
  });
});
