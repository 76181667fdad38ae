import { describe, expect, it } from 'vitest';
import { PART_WEIGHTS, weightedTotal } from './total-score.js';

describe('weightedTotal', () => {
  it('weighs diagnostic 0.35, survey 0.35, mirror 0.30', () => {
    expect(PART_WEIGHTS).toEqual({ diagnostic: 0.35, survey: 0.35, mirror: 0.3 });
    // 0.35 × 40 + 0.35 × 60 + 0.30 × 50 = 14 + 21 + 15 = 50
    expect(weightedTotal(40, 60, 50)).toBe(50);
  });

  it('rounds to a whole number', () => {
    // 0.35 × 71.1 + 0.35 × 90.5 + 0.30 × 100 = 24.885 + 31.675 + 30 = 86.56 -> 87
    expect(weightedTotal(71.1, 90.5, 100)).toBe(87);
  });
});
