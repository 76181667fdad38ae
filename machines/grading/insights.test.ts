import { describe, expect, it } from 'vitest';
import { DISPLAY_DIMENSIONS, type DisplayDimension } from '../content/dimensions.js';
import { keyInsights } from './insights.js';

const scores = (overrides: Partial<Record<DisplayDimension, number>>) =>
  ({ ...Object.fromEntries(Object.keys(DISPLAY_DIMENSIONS).map((d) => [d, 50])), ...overrides }) as Record<DisplayDimension, number>;

describe('keyInsights', () => {
  it('names the strongest and weakest measured dimension of the six shown, on their 0-100 scale, and the level', () => {
    const insights = keyInsights({
      scores: scores({ LER: 78, DCR: 25, TBR: 61, VIS: 5 }),
      measured: ['LER', 'DCR', 'TrustDelta'],
      leadershipLevel: 'Developing Leader',
      contradictions: 0,
      timedOut: 0,
    });
    // Vision (5) is lower than Delegation Command but was never measured, so it is not called a growth edge
    expect(insights).toEqual([
      'Your strongest dimension is Leadership Effectiveness (78/100).',
      'Your growth edge is Delegation Command (25/100).',
      'Across the statements you rated, your answers place you at the Developing Leader level.',
    ]);
  });

  it('calls a growth edge only one of the six dimensions the results show', () => {
    const insights = keyInsights({
      scores: scores({ LER: 70, OAD: 20 }),
      // OAD is shown from OwnershipFault and DetachmentLoad: a measured source makes it eligible
      measured: ['LER', 'DetachmentLoad'],
      leadershipLevel: 'Developing Leader',
      contradictions: 0,
      timedOut: 0,
    });
    expect(insights[1]).toBe('Your growth edge is Ownership Accountability Detachment (20/100).');
    const labels = Object.values(DISPLAY_DIMENSIONS).map((d) => d.label);
    for (const line of insights.slice(0, 2)) expect(labels.some((label) => line.includes(label))).toBe(true);
  });

  it('mentions contradictions and timeouts when there are any, in words that agree with the timed screen', () => {
    const insights = keyInsights({ scores: scores({}), measured: [], leadershipLevel: 'Emerging Leader', contradictions: 1, timedOut: 2 });
    expect(insights).toEqual([
      'Across the statements you rated, your answers place you at the Emerging Leader level.',
      'Some of your answers pull in different directions; that tension is worth exploring with a coach.',
      'Time ran out on 2 of the scenarios: a default answer was recorded, and it does not count toward your scores.',
    ]);
  });
});
