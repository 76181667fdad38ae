import { describe, expect, it } from 'vitest';
import { DIMENSIONS, type Dimension } from '../content/dimensions.js';
import { displayScores } from './display.js';

describe('displayScores', () => {
  it('reads the six results-page scores off the canonical profile, 0-100', () => {
    const dimensions = {
      ...Object.fromEntries(DIMENSIONS.map((d) => [d, 5])),
      LER: 10, // (10 - 1) / 9 × 100 = 100
      DCR: 1, // 0
      TrustDelta: 5.5, // 50
      OwnershipFault: 8, // OAD: mean(8, 6) = 7 -> 66.67 -> 67
      DetachmentLoad: 6,
      Vision: 5, // 44.44 -> 44
      FrictionSensitivity: 4, // FAD: mean(4, 3) = 3.5 -> 27.78 -> 28
      Resilience: 3,
    } as Record<Dimension, number>;
    expect(displayScores(dimensions)).toEqual({ LER: 100, DCR: 0, TBR: 50, OAD: 67, VIS: 44, FAD: 28 });
  });
});
