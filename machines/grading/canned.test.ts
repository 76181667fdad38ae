import { describe, expect, it } from 'vitest';
import { cannedResult } from './canned.js';
import { outcomeFor } from './outcome.js';
import { GRADING_VERSION } from './rules.js';

describe('cannedResult', () => {
  it('is the fallback', () => {
    const result = cannedResult();
    expect(result).toMatchObject({
      qualification: 'nurture',
      narrative: 'Assessment completed with fallback processing',
      archetype: 'Emerging Leader',
      scores: { LER: 65, DCR: 60, VIS: 70 },
      fallback: true,
      bankVersion: null,
      gradingVersion: GRADING_VERSION,
    });
    expect(outcomeFor(result.qualification)).toBe('nurture');
  });

  it('gives each caller its own copy', () => {
    const a = cannedResult();
    a.keyInsights.push('changed');
    expect(cannedResult().keyInsights).toEqual([]);
  });
});
