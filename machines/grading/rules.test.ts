import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnosticScreens } from '../content/index.js';
import { gradeAssessment, type Answers } from './index.js';
import { DEFAULT_GRADING_RULES, DEFAULT_RULE_SET, GRADING_VERSION, GradingRules, type GradingRuleSet } from './rules.js';

/** Every likert statement answered 4 (2 on reverse items): each dimension 7.5, diagnostic 72.2, no contradiction. */
function considered(): Answers {
  const answers: Answers = {};
  for (const s of diagnosticScreens) {
    if (s.type === 'likert') answers[s.id] = { type: 'likert', value: s.item.reverse ? 2 : 4, responseTime: 5_000 };
  }
  return answers;
}

// survey 76, Mirror 50: 0.35 × 72.2 + 0.35 × 76 + 0.30 × 50 = 66.87 -> 67, homework under the built-in rules
const readySurvey = { q1_investment: 'payment_terms', q2_time: 'start_30_days', q3_urgency: 'important', q4_mindset: 'tools' };
const input = { answers: considered(), survey: readySurvey, mirrorChat: [] };

const withRules = (version: string, change: (rules: GradingRules) => void): GradingRuleSet => {
  const rules = structuredClone(DEFAULT_GRADING_RULES);
  change(rules);
  return { version, rules: GradingRules.parse(rules) };
};

describe('GradingRules', () => {
  it('accepts the built-in rules, which are the specification numbers', () => {
    expect(GradingRules.parse(DEFAULT_GRADING_RULES)).toEqual(DEFAULT_GRADING_RULES);
    expect(DEFAULT_RULE_SET.version).toBe(GRADING_VERSION);
  });

  it('refuses a rule set whose numbers do not hold together, naming the field', () => {
    const issues = (value: unknown) =>
      GradingRules.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];
    const broken = structuredClone(DEFAULT_GRADING_RULES) as Record<string, Record<string, unknown>>;
    broken.partWeights!.mirror = 0.5;
    broken.thresholds = { bookCall: 40, homework: 60 };
    broken.modifiers!.delayCap = 49.5;
    broken.contradictionPenalties!.trust_vs_review = -1;
    broken.tierConditions!.extra = true;
    expect(issues(broken)).toEqual([
      'partWeights: The three part weights must add up to 1',
      'thresholds: The homework threshold cannot be above the book_call threshold',
      'modifiers.delayCap: The delay cap must be a whole number',
      'contradictionPenalties.trust_vs_review: The trust-versus-review penalty must be between 0 and 100',
      'tierConditions: Unrecognized key: "extra"',
    ]);
    expect(issues({})).toContain('partWeights: Invalid input: expected object, received undefined');
  });
});

describe('gradeAssessment under other rules', () => {
  it('grades under the built-in rules when given none, and says which version', () => {
    expect(gradeAssessment(input, { ruleSet: DEFAULT_RULE_SET })).toEqual(gradeAssessment(input));
    expect(gradeAssessment(input).gradingVersion).toBe(GRADING_VERSION);
  });

  it('moves the lead to book_call when the threshold drops to their total, and records the new version', () => {
    const lower = withRules('grading-2', (rules) => {
      rules.thresholds.bookCall = 65;
    });
    // total 67 as above; 67 >= 65 with q1 and q2 ready -> book_call
    const result = gradeAssessment(input, { ruleSet: lower });
    expect(result.totalScore).toBe(67);
    expect(result.tier).toBe('book_call');
    expect(result.gradingVersion).toBe('grading-2');
    expect(result.qualificationReasoning).toContain(
      'Tier book_call: total 67 is at least 65, the investment is ready (q1) and they can start within 30 days (q2).',
    );
  });

  it('weighs the parts as the rules say', () => {
    const diagnosticHeavy = withRules('grading-3', (rules) => {
      rules.partWeights = { diagnostic: 0.5, survey: 0.5, mirror: 0 };
    });
    // 0.5 × 72.2 + 0.5 × 76 + 0 × 50 = 36.1 + 38 = 74.1 -> 74, book_call (70+, ready)
    const result = gradeAssessment(input, { ruleSet: diagnosticHeavy });
    expect(result.totalScore).toBe(74);
    expect(result.tier).toBe('book_call');
    expect(result.rulesFired.slice(0, 3)).toEqual([
      { rule: 'diagnostic_part', label: 'Diagnostic 72.2 × 0.5', points: 36.1 },
      { rule: 'survey_part', label: 'Survey 76 × 0.5', points: 38 },
      { rule: 'mirror_part', label: 'Mirror 50 × 0', points: 0 },
    ]);
  });

  it('applies the modifiers, cap and penalties the rules give', () => {
    const harsher = withRules('grading-4', (rules) => {
      rules.modifiers = { validationPenalty: 30, urgencyBonus: 20, delayCap: 40 };
    });
    // q4 validation scores 2 × 0.15 = 0.3 of tools' 1.05: survey 6.85 of 10 -> 68.5;
    // 0.35 × 72.2 + 0.35 × 68.5 + 15 = 25.27 + 23.975 + 15 = 64.245 -> 64; - 30 = 34, nurture
    const validation = gradeAssessment({ ...input, survey: { ...readySurvey, q4_mindset: 'validation' } }, { ruleSet: harsher });
    expect(validation.totalScore).toBe(34);
    expect(validation.tier).toBe('nurture');
    expect(validation.rulesFired).toContainEqual({
      rule: 'validation_penalty',
      label: 'Seeks validation rather than challenge (q4)',
      points: -30,
    });
    // critical urgency with ready_now: survey 3.5 + 2.0 + 2.5 + 1.05 = 9.05 -> 90.5;
    // 0.35 × 72.2 + 0.35 × 90.5 + 15 = 25.27 + 31.675 + 15 = 71.945 -> 72; + 20 = 92
    const urgent = gradeAssessment(
      { ...input, survey: { ...readySurvey, q1_investment: 'ready_now', q3_urgency: 'critical' } },
      { ruleSet: harsher },
    );
    expect(urgent.totalScore).toBe(92);
    // need_time (q1) with not_3_months (q2) is capped at 40
    const delayed = gradeAssessment(
      { ...input, survey: { ...readySurvey, q1_investment: 'need_time', q2_time: 'not_3_months' } },
      { ruleSet: harsher },
    );
    expect(delayed.totalScore).toBeLessThanOrEqual(40);
    expect(delayed.qualificationReasoning.some((line) => line.includes('total capped at 40'))).toBe(true);
  });

  it('lets a coach drop a readiness condition or stop disqualifying', () => {
    // 70+ (ready_now with critical urgency: 84 under the built-in rules) but cannot start within 30 days
    const notReadyToStart = { ...readySurvey, q1_investment: 'ready_now', q2_time: 'not_3_months', q3_urgency: 'critical' };
    expect(gradeAssessment({ ...input, survey: notReadyToStart }).tier).toBe('homework');
    const relaxed = withRules('grading-5', (rules) => {
      rules.tierConditions.bookCallNeedsReadyToStart = false;
    });
    expect(gradeAssessment({ ...input, survey: notReadyToStart }, { ruleSet: relaxed }).tier).toBe('book_call');

    const disqualified = { ...readySurvey, q1_investment: 'not_ready' };
    expect(gradeAssessment({ ...input, survey: disqualified }).tier).toBe('nurture');
    const lenient = withRules('grading-6', (rules) => {
      rules.tierConditions.disqualifiersForceNurture = false;
      rules.tierConditions.bookCallNeedsReadyToInvest = false;
    });
    // not_ready scores 0 for q1: survey 0 + 2.0 + 1.75 + 1.05 = 4.8 of 10 -> 48;
    // 25.27 + 0.35 × 48 + 15 = 25.27 + 16.8 + 15 = 57.07 -> 57, homework
    const graded = gradeAssessment({ ...input, survey: disqualified }, { ruleSet: lenient });
    expect(graded.totalScore).toBe(57);
    expect(graded.tier).toBe('homework');
    expect(graded.rulesFired.some((rule) => rule.rule === 'disqualified')).toBe(false);
  });

  it('lists every rule that fired with its points, ending with the tier', () => {
    const result = gradeAssessment({ ...input, survey: { ...readySurvey, q4_mindset: 'validation' } });
    // survey 68.5 (see above); 25.27 + 23.975 + 15 = 64.245 -> 64; - 15 = 49, nurture
    expect(result.rulesFired).toEqual([
      { rule: 'diagnostic_part', label: 'Diagnostic 72.2 × 0.35', points: 25.27 },
      { rule: 'survey_part', label: 'Survey 68.5 × 0.35', points: 23.98 },
      { rule: 'mirror_part', label: 'Mirror 50 × 0.3', points: 15 },
      { rule: 'validation_penalty', label: 'Seeks validation rather than challenge (q4)', points: -15 },
      { rule: 'tier', label: 'Tier nurture: total 49 is 49 or below.', points: null },
    ]);
  });
});

// A valid rule set: weights that add up to 1 (in hundredths), thresholds in order, any modifiers.
const ruleSets: fc.Arbitrary<GradingRuleSet> = fc
  .record({
    diagnostic: fc.integer({ min: 0, max: 100 }),
    survey: fc.integer({ min: 0, max: 100 }),
    thresholds: fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })),
    validationPenalty: fc.integer({ min: 0, max: 100 }),
    urgencyBonus: fc.integer({ min: 0, max: 100 }),
    delayCap: fc.integer({ min: 0, max: 100 }),
    flags: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
    version: fc.integer({ min: 2, max: 1000 }),
  })
  .filter(({ diagnostic, survey }) => diagnostic + survey <= 100)
  .map((r) => ({
    version: `grading-${r.version}`,
    rules: GradingRules.parse({
      partWeights: { diagnostic: r.diagnostic / 100, survey: r.survey / 100, mirror: (100 - r.diagnostic - r.survey) / 100 },
      thresholds: { bookCall: Math.max(...r.thresholds), homework: Math.min(...r.thresholds) },
      modifiers: { validationPenalty: r.validationPenalty, urgencyBonus: r.urgencyBonus, delayCap: r.delayCap },
      contradictionPenalties: DEFAULT_GRADING_RULES.contradictionPenalties,
      tierConditions: {
        bookCallNeedsReadyToInvest: r.flags[0],
        bookCallNeedsReadyToStart: r.flags[1],
        disqualifiersForceNurture: r.flags[2],
      },
    }),
  }));

const surveys = fc.record({
  q1_investment: fc.constantFrom('ready_now', 'payment_terms', 'need_time', 'not_ready'),
  q2_time: fc.constantFrom('start_immediately', 'start_30_days', 'not_3_months', 'schedule_full'),
  q3_urgency: fc.constantFrom('critical', 'important'),
  q4_mindset: fc.constantFrom('tools', 'validation'),
});

describe('grading rules properties', () => {
  it('gives the same tier and total for the same rules and answers, however the rules arrive', () => {
    fc.assert(
      fc.property(ruleSets, surveys, (ruleSet, survey) => {
        const first = gradeAssessment({ ...input, survey }, { ruleSet });
        // a rule set read back from storage (JSON) grades identically
        const stored = JSON.parse(JSON.stringify(ruleSet)) as GradingRuleSet;
        expect(gradeAssessment({ ...input, survey }, { ruleSet: stored })).toEqual(first);
        expect(first.gradingVersion).toBe(ruleSet.version);
        expect(first.totalScore).toBeGreaterThanOrEqual(0);
        expect(first.totalScore).toBeLessThanOrEqual(100);
        expect(first.rulesFired.at(-1)).toMatchObject({ rule: 'tier', points: null });
      }),
      { numRuns: 300 },
    );
  });

  it('never lowers a tier when only the thresholds come down', () => {
    const rank = { nurture: 0, homework: 1, book_call: 2 } as const;
    fc.assert(
      fc.property(ruleSets, surveys, fc.integer({ min: 0, max: 100 }), (ruleSet, survey, drop) => {
        const lowered = structuredClone(ruleSet);
        lowered.rules.thresholds = {
          bookCall: Math.max(0, ruleSet.rules.thresholds.bookCall - drop),
          homework: Math.max(0, ruleSet.rules.thresholds.homework - drop),
        };
        const before = gradeAssessment({ ...input, survey }, { ruleSet }).tier;
        const after = gradeAssessment({ ...input, survey }, { ruleSet: lowered }).tier;
        expect(rank[after]).toBeGreaterThanOrEqual(rank[before]);
      }),
      { numRuns: 300 },
    );
  });
});
