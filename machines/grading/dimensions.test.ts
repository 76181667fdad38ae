import { describe, expect, it } from 'vitest';
import { diagnosticBank } from '../content/index.js';
import { DiagnosticBank, flattenBank } from '../content/diagnostic-bank.js';
import { dimensionScore, likertSignal, rankingEvidence, scoreDimensions, vignetteEvidence } from './dimensions.js';
import type { Answers } from './types.js';

const ranking = diagnosticBank.priority_ranking!;
const vigScale = diagnosticBank.vignettes!.items.find((v) => v.id === 'vig_scale')!;

describe('likertSignal', () => {
  it('maps 1..5 onto -1..+1 as (value - 3) / 2', () => {
    expect([1, 2, 3, 4, 5].map((v) => likertSignal(v, false))).toEqual([-1, -0.5, 0, 0.5, 1]);
  });

  it('reverses with 6 - value first: reverse 1 -> 5 -> +1, reverse 4 -> 2 -> -0.5', () => {
    expect(likertSignal(1, true)).toBe(1);
    expect(likertSignal(4, true)).toBe(-0.5);
  });
});

describe('dimensionScore', () => {
  it('defaults to 5 without evidence', () => {
    expect(dimensionScore([])).toBe(5);
  });

  it('is 5 + 5 × mean signal', () => {
    // mean(1, 0.5, 0) = 0.5; 5 + 5 × 0.5 = 7.5
    expect(dimensionScore([1, 0.5, 0])).toBe(7.5);
    expect(dimensionScore([1])).toBe(10);
  });

  it('clamps to 1-10', () => {
    // mean(-1, -0.8) = -0.9; 5 - 4.5 = 0.5, clamped to 1
    expect(dimensionScore([-1, -0.8])).toBe(1);
  });
});

describe('vignetteEvidence', () => {
  it("returns the chosen option's weights", () => {
    expect(vignetteEvidence(vigScale, 'scale_maintain')).toEqual([
      { dimension: 'DCR', signal: -1 },
      { dimension: 'TrustDelta', signal: -0.5 },
      { dimension: 'DetachmentLoad', signal: -1 },
    ]);
  });

  it('is null for an option the vignette does not have', () => {
    expect(vignetteEvidence(vigScale, 'dc_convene')).toBeNull();
  });
});

describe('rankingEvidence', () => {
  it('weights positions 1..5 by +1, +0.5, 0, -0.5, -1', () => {
    // (n - 1 - 2r) / (n - 1) with n = 5: r = 0 -> 4/4, 1 -> 2/4, 2 -> 0, 3 -> -2/4, 4 -> -4/4
    const evidence = rankingEvidence(ranking, ['vision', 'capability', 'results', 'stakeholder', 'process']);
    expect(evidence).toEqual([
      { dimension: 'Vision', signal: 0.8 }, // 0.8 × 1
      { dimension: 'DCR', signal: 0.3 }, // 0.6 × 0.5
      { dimension: 'TrustDelta', signal: 0.2 }, // 0.4 × 0.5
      { dimension: 'LER', signal: 0 }, // 0.6 × 0
      { dimension: 'Discipline', signal: 0 }, // 0.2 × 0
      { dimension: 'FrictionSensitivity', signal: -0.3 }, // 0.6 × -0.5
      { dimension: 'Discipline', signal: -0.6 }, // 0.6 × -1
    ]);
  });

  it('is null unless every item is placed exactly once', () => {
    expect(rankingEvidence(ranking, ['vision', 'capability'])).toBeNull();
    expect(rankingEvidence(ranking, ['vision', 'vision', 'results', 'stakeholder', 'process'])).toBeNull();
    expect(rankingEvidence(ranking, ['vision', 'capability', 'results', 'stakeholder', 'nonsense'])).toBeNull();
  });
});

describe('scoreDimensions', () => {
  const bank = DiagnosticBank.parse({
    version: '9.0.0',
    title: 'T',
    estimatedMinutes: '1',
    baseline: {
      id: 'baseline',
      label: 'B',
      instructions: 'I',
      items: [
        { id: 'ler', prompt: 'p', reverse: false, dimension: 'LER' },
        { id: 'ler_slow', prompt: 'p', reverse: false, dimension: 'LER' },
        { id: 'dcr_rev', prompt: 'p', reverse: true, dimension: 'DCR' },
      ],
    },
    vignettes: {
      id: 'vignettes',
      label: 'V',
      instructions: 'I',
      items: [
        {
          id: 'vig',
          prompt: 'p',
          timeLimitSec: 30,
          options: [
            { id: 'first', label: 'l', weights: { TrustDelta: 1 } },
            { id: 'second', label: 'l', weights: { DCR: -1 } },
          ],
        },
      ],
    },
  });
  const screens = flattenBank(bank);

  it('scales rushed answers by 0.95 and slow ones by 0.97', () => {
    const answers: Answers = {
      ler: { type: 'likert', value: 5, responseTime: 1_500 }, // signal 1 × 0.95 = 0.95
      ler_slow: { type: 'likert', value: 5, responseTime: 40_000 }, // signal 1 × 0.97 = 0.97
      dcr_rev: { type: 'likert', value: 1, responseTime: 5_000 }, // reverse: 6 - 1 = 5, signal 1
      vig: { type: 'vignette', value: 'second', responseTime: 10_000, confidence: 4 }, // DCR -1
    };
    const result = scoreDimensions(screens, answers);
    // LER: mean(0.95, 0.97) = 0.96; 5 + 5 × 0.96 = 9.8
    expect(result.dimensions.LER).toBe(9.8);
    // DCR: mean(1, -1) = 0; 5 + 0 = 5
    expect(result.dimensions.DCR).toBe(5);
    expect(result.dimensions.TrustDelta).toBe(5);
    expect(result).toMatchObject({ answeredInTime: 4, rushed: 1, slow: 1, timedOut: 0, ignored: [], measured: ['LER', 'DCR'] });
  });

  it('gives timed-out answers no evidence and counts them', () => {
    const result = scoreDimensions(screens, { vig: { type: 'vignette', value: 'first', responseTime: 30_000, timedOut: true } });
    expect(result.dimensions.TrustDelta).toBe(5);
    expect(result).toMatchObject({ answeredInTime: 0, timedOut: 1, measured: [] });
  });

  it('ignores answers for unknown screens and answers of the wrong type or value', () => {
    const result = scoreDimensions(screens, {
      zzz: { type: 'likert', value: 5, responseTime: 5_000 },
      ler: { type: 'vignette', value: 'first', responseTime: 5_000 },
      vig: { type: 'vignette', value: 'missing', responseTime: 5_000 },
    });
    expect(result.ignored).toEqual(['zzz', 'ler', 'vig']);
    expect(result.answeredInTime).toBe(0);
  });
});
