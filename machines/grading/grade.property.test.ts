import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnosticScreens, qualificationSurvey } from '../content/index.js';
import { DIMENSIONS, DisplayDimension } from '../content/dimensions.js';
import { gradeAssessment, type Answer, type GradeInput } from './index.js';

const responseTime = fc.integer({ min: 0, max: 90_000 });
const timedOut = fc.option(fc.boolean(), { nil: undefined });

// An answer for each screen, sometimes missing, sometimes not one the screen offers. A "strong"
// visitor answers every likert item on the side of strength, so high totals and book_call occur often.
const answerFor = (screen: (typeof diagnosticScreens)[number], strong: boolean): fc.Arbitrary<Answer> => {
  if (screen.type === 'likert') {
    const [min, max] = !strong ? [1, 5] : screen.item.reverse ? [1, 2] : [4, 5];
    return fc.record({ type: fc.constant('likert' as const), value: fc.integer({ min, max }), responseTime, timedOut });
  }
  if (screen.type === 'vignette') {
    return fc.record({
      type: fc.constant('vignette' as const),
      value: fc.oneof(fc.constantFrom(...screen.choiceIds), fc.string({ minLength: 1 })),
      confidence: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      responseTime,
      timedOut,
    });
  }
  return fc.record({
    type: fc.constant('ranking' as const),
    value: fc.oneof(
      fc.shuffledSubarray(screen.choiceIds, { minLength: screen.choiceIds.length }),
      fc.shuffledSubarray(screen.choiceIds, { minLength: 1 }),
    ),
    responseTime,
    timedOut,
  });
};

const answers = fc
  .boolean()
  .chain((strong) =>
    fc
      .tuple(...diagnosticScreens.map((s) => fc.option(answerFor(s, strong), { nil: undefined, freq: 8 })))
      .map((list) => Object.fromEntries(diagnosticScreens.flatMap((s, i) => (list[i] ? [[s.id, list[i]]] : [])))),
  );

const survey = fc
  .tuple(
    ...qualificationSurvey.questions.map((q) =>
      fc.option(q.kind === 'choice' ? fc.constantFrom(...q.options.map((o) => o.id)) : fc.string(), { nil: undefined, freq: 8 }),
    ),
  )
  .map((list) => Object.fromEntries(qualificationSurvey.questions.flatMap((q, i) => (list[i] === undefined ? [] : [[q.id, list[i]]]))));

const phrases = [
  'I should have seen it coming.',
  'Honestly I am scared of getting this wrong.',
  'Last week I realised I keep doing the same thing.',
  'It was their fault, they never listen.',
  'Not my fault, I had no choice.',
  'Was I right?',
  'Fine.',
];
const mirrorChat = fc.array(
  fc.record({
    role: fc.constantFrom('user' as const, 'mirror' as const),
    content: fc.oneof(fc.constantFrom(...phrases), fc.string()),
  }),
  { maxLength: 10 },
);

const input: fc.Arbitrary<GradeInput> = fc.record({ answers, survey, mirrorChat });

describe('gradeAssessment properties', () => {
  it('puts every lead in the tier its total and survey answers call for', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = gradeAssessment(i);
        const q1 = i.survey.q1_investment;
        const q2 = i.survey.q2_time;
        const disqualified = q1 === 'not_ready' || q2 === 'schedule_full';
        const ready = ['ready_now', 'payment_terms'].includes(q1 ?? '') && ['start_immediately', 'start_30_days'].includes(q2 ?? '');
        const expected = disqualified ? 'nurture' : r.totalScore >= 70 && ready ? 'book_call' : r.totalScore >= 50 ? 'homework' : 'nurture';
        expect(r.tier).toBe(expected);
        expect(r.qualification).toBe(r.tier);
        if (q1 === 'need_time' && q2 === 'not_3_months') expect(r.totalScore).toBeLessThanOrEqual(49);
        expect(r.qualificationReasoning.some((line) => line.startsWith(`Tier ${r.tier}:`))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every score in range', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = gradeAssessment(i);
        expect(Number.isInteger(r.totalScore)).toBe(true);
        for (const score of [r.totalScore, r.diagnosticScore, r.surveyScore, r.mirrorScore, r.compositeScore]) {
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(100);
        }
        for (const d of DIMENSIONS) {
          expect(r.dimensions[d]).toBeGreaterThanOrEqual(1);
          expect(r.dimensions[d]).toBeLessThanOrEqual(10);
        }
        for (const d of DisplayDimension.options) {
          expect(Number.isInteger(r.scores[d])).toBe(true);
          expect(r.scores[d]).toBeGreaterThanOrEqual(0);
          expect(r.scores[d]).toBeLessThanOrEqual(100);
        }
        expect(r.confidence).toBeGreaterThanOrEqual(0);
        expect(r.confidence).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic, whatever order the answers arrive in', () => {
    fc.assert(
      fc.property(input, (i) => {
        const first = gradeAssessment(i);
        expect(gradeAssessment(structuredClone(i))).toEqual(first);
        const reordered = { ...i, answers: Object.fromEntries(Object.entries(i.answers).reverse()) };
        expect(gradeAssessment(reordered)).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });

  it('asks for a retake exactly when gaming is detected, with the message', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = gradeAssessment(i);
        expect(r.requiresRetake).toBe(r.gamingDetected);
        expect(r.message !== undefined).toBe(r.gamingDetected);
      }),
      { numRuns: 200 },
    );
  });
});
