import { describe, expect, it } from 'vitest';
import { clamp, mean, round, tenToPercent } from './scale.js';

describe('scale helpers', () => {
  it('clamps into the range', () => {
    expect(clamp(0, 1, 10)).toBe(1);
    expect(clamp(11, 1, 10)).toBe(10);
    expect(clamp(7.5, 1, 10)).toBe(7.5);
  });

  it('rounds half away from zero without binary drift', () => {
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(2.5)).toBe(3);
    expect(round(-2.5)).toBe(-3);
    expect(round(61.1111, 1)).toBe(61.1);
  });

  it('maps 1-10 onto 0-100', () => {
    expect(tenToPercent(1)).toBe(0);
    expect(tenToPercent(5.5)).toBe(50);
    expect(tenToPercent(10)).toBe(100);
    // (5 - 1) / 9 × 100 = 44.44…
    expect(tenToPercent(5)).toBeCloseTo(44.444, 3);
  });

  it('averages', () => {
    expect(mean([4, 5, 6])).toBe(5);
  });
});
