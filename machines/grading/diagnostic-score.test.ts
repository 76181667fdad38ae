import { describe, expect, it } from 'vitest';
import { DIMENSIONS, type Dimension } from '../content/dimensions.js';
import { diagnosticScore } from './diagnostic-score.js';

const profile = (overrides: Partial<Record<Dimension, number>> = {}) =>
  ({ ...Object.fromEntries(DIMENSIONS.map((d) => [d, 5])), ...overrides }) as Record<Dimension, number>;

describe('diagnosticScore', () => {
  it('maps the default profile: mean 5 -> (5 - 1) / 9 × 100 = 44.4', () => {
    expect(diagnosticScore(profile(), 0)).toBe(44.4);
  });

  it('averages Discipline, Resilience, SelfAware, TrustDelta, LER and OwnershipFault only', () => {
    const d = profile({ Discipline: 8, Resilience: 7, SelfAware: 6, TrustDelta: 9, LER: 10, OwnershipFault: 8, DCR: 1, Vision: 1 });
    // (8 + 7 + 6 + 9 + 10 + 8) / 6 = 8; (8 - 1) / 9 × 100 = 77.78 -> 77.8
    expect(diagnosticScore(d, 0)).toBe(77.8);
    // 77.78 - 15 = 62.78 -> 62.8
    expect(diagnosticScore(d, 15)).toBe(62.8);
  });

  it('never goes below 0', () => {
    const floor = profile(Object.fromEntries(DIMENSIONS.map((d) => [d, 1])));
    // 0 - 10 -> 0
    expect(diagnosticScore(floor, 10)).toBe(0);
  });
});
