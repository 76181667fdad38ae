import { describe, expect, it } from 'vitest';
import { DIMENSIONS, type Dimension } from '../content/dimensions.js';
import { compositeScore, DIMENSION_WEIGHTS } from './composite-score.js';

const profile = (overrides: Partial<Record<Dimension, number>> = {}) =>
  ({ ...Object.fromEntries(DIMENSIONS.map((d) => [d, 5])), ...overrides }) as Record<Dimension, number>;

describe('compositeScore', () => {
  it('uses the weights, summing to 1', () => {
    expect(DIMENSION_WEIGHTS).toEqual({
      LER: 0.2,
      DCR: 0.2,
      TrustDelta: 0.15,
      OwnershipFault: 0.2,
      DetachmentLoad: 0.15,
      FrictionSensitivity: 0.1,
    });
    expect(Object.values(DIMENSION_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it('maps the weighted sum onto 0-100 and subtracts penalties', () => {
    const d = profile({ LER: 10, DCR: 1, TrustDelta: 5, OwnershipFault: 8, DetachmentLoad: 3, FrictionSensitivity: 6, Vision: 10 });
    // 0.2×10 + 0.2×1 + 0.15×5 + 0.2×8 + 0.15×3 + 0.1×6 = 2 + 0.2 + 0.75 + 1.6 + 0.45 + 0.6 = 5.6
    // (5.6 - 1) / 9 × 100 = 51.11 -> 51.1
    expect(compositeScore(d, 0)).toBe(51.1);
    // 51.11 - 10 = 41.11 -> 41.1
    expect(compositeScore(d, 10)).toBe(41.1);
  });

  it('is 100 for a perfect profile and never negative', () => {
    expect(compositeScore(profile(Object.fromEntries(DIMENSIONS.map((d) => [d, 10]))), 0)).toBe(100);
    expect(compositeScore(profile(Object.fromEntries(DIMENSIONS.map((d) => [d, 1]))), 30)).toBe(0);
  });
});
