import { describe, expect, it } from 'vitest';
import { timingModifier } from './timing.js';

describe('timingModifier', () => {
  it('is -0.05 under 2 s', () => {
    expect(timingModifier(0)).toBe(-0.05);
    expect(timingModifier(1_999)).toBe(-0.05);
  });

  it('is 0 from 2 s to 30 s inclusive', () => {
    expect(timingModifier(2_000)).toBe(0);
    expect(timingModifier(12_000)).toBe(0);
    expect(timingModifier(30_000)).toBe(0);
  });

  it('is -0.03 over 30 s', () => {
    expect(timingModifier(30_001)).toBe(-0.03);
    expect(timingModifier(600_000)).toBe(-0.03);
  });
});
