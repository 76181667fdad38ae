import { describe, expect, it } from 'vitest';
import { likertAverageLabel } from './leadership-level.js';

describe('likertAverageLabel', () => {
  it('is Established Leader at an average of 4 or more', () => {
    // (4 + 4 + 5 + 3) / 4 = 4
    expect(likertAverageLabel([4, 4, 5, 3])).toBe('Established Leader');
  });

  it('is Developing Leader at 3 or more', () => {
    // (3 + 3 + 4 + 2) / 4 = 3
    expect(likertAverageLabel([3, 3, 4, 2])).toBe('Developing Leader');
    // (4 + 4 + 4 + 3) / 4 = 3.75
    expect(likertAverageLabel([4, 4, 4, 3])).toBe('Developing Leader');
  });

  it('is Emerging Leader below 3 or without answers', () => {
    // (2 + 3 + 3 + 3) / 4 = 2.75
    expect(likertAverageLabel([2, 3, 3, 3])).toBe('Emerging Leader');
    expect(likertAverageLabel([])).toBe('Emerging Leader');
  });
});
