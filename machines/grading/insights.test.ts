import { describe, expect, it } from 'vitest';
import { DIMENSIONS, type Dimension } from '../content/schemas';
import { keyInsights } from './insights';

const dims = (overrides: Partial<Record<Dimension, number>>) =>
  ({ ...Object.fromEntries(DIMENSIONS.map((d) => [d, 5])), ...overrides }) as Record<Dimension, number>;

describe('keyInsights', () => {
  it('names the strongest and weakest measured dimension and the level', () => {
    const insights = keyInsights({
      dimensions: dims({ LER: 8, DCR: 3, TrustDelta: 6, Vision: 1 }),
      measured: ['LER', 'DCR', 'TrustDelta'],
      leadershipLevel: 'Developing Leader',
      contradictions: 0,
      timedOut: 0,
    });
    // Vision (1) is lower than DCR but was never measured, so it is not called a growth edge
    expect(insights).toEqual([
      'Your strongest dimension is Leadership Effectiveness (8/10).',
      'Your growth edge is Delegation Command (3/10).',
      'Across the statements you rated, your answers place you at the Developing Leader level.',
    ]);
  });

  it('mentions contradictions and timeouts when there are any', () => {
    const insights = keyInsights({
      dimensions: dims({}),
      measured: [],
      leadershipLevel: 'Emerging Leader',
      contradictions: 1,
      timedOut: 2,
    });
    expect(insights).toEqual([
      'Across the statements you rated, your answers place you at the Emerging Leader level.',
      'Some of your answers pull in different directions; that tension is worth exploring with a coach.',
      'Time ran out on 2 of the scenarios, so those were not counted.',
    ]);
  });
});
