import { describe, expect, it } from 'vitest';
import { CONTRADICTIONS, findContradictions, holds } from './contradictions.js';
import { DEFAULT_GRADING_RULES } from './rules.js';
import type { Answer, Answers } from './types.js';

const likert = (value: number, timedOut = false): Answer => ({ type: 'likert', value, responseTime: 5_000, timedOut });
const vignette = (value: string, timedOut = false): Answer => ({ type: 'vignette', value, responseTime: 5_000, timedOut });

describe('holds', () => {
  it('holds a likert statement answered 4 or 5', () => {
    expect(holds({ dcr1: likert(4) }, { likert: 'dcr1' })).toBe(true);
    expect(holds({ dcr1: likert(5) }, { likert: 'dcr1' })).toBe(true);
    expect(holds({ dcr1: likert(3) }, { likert: 'dcr1' })).toBe(false);
    expect(holds({}, { likert: 'dcr1' })).toBe(false);
  });

  it('holds a vignette option only when chosen', () => {
    const claim = { vignette: 'vig_scale', option: 'scale_maintain' };
    expect(holds({ vig_scale: vignette('scale_maintain') }, claim)).toBe(true);
    expect(holds({ vig_scale: vignette('scale_leads') }, claim)).toBe(false);
  });

  it('never holds what a timeout answered', () => {
    expect(holds({ dcr1: likert(5, true) }, { likert: 'dcr1' })).toBe(false);
    expect(holds({ vig_scale: vignette('scale_maintain', true) }, { vignette: 'vig_scale', option: 'scale_maintain' })).toBe(false);
  });
});

describe('findContradictions', () => {
  it('has the three pairs and penalties', () => {
    const penalty = (c: (typeof CONTRADICTIONS)[number]) => DEFAULT_GRADING_RULES.contradictionPenalties[c.id];
    expect(CONTRADICTIONS.map((c) => [c.first, c.second, penalty(c)])).toEqual([
      [{ likert: 'dcr1' }, { vignette: 'vig_scale', option: 'scale_maintain' }, 10],
      [{ likert: 'own1' }, { likert: 'b2' }, 15],
      [{ likert: 'tr1' }, { likert: 'tr3' }, 5],
    ]);
  });

  it('fires when both sides are held', () => {
    const answers: Answers = {
      dcr1: likert(4),
      vig_scale: vignette('scale_maintain'),
      own1: likert(5),
      b2: likert(4),
      tr1: likert(5),
      tr3: likert(5),
    };
    expect(findContradictions(answers).map((c) => c.id)).toEqual(['delegation_vs_control', 'ownership_vs_blame', 'trust_vs_review']);
  });

  it('does not fire when one side is only neutral', () => {
    expect(findContradictions({ own1: likert(5), b2: likert(3), tr1: likert(4), tr3: likert(2) })).toEqual([]);
  });

  it('fires each pair on its own', () => {
    expect(findContradictions({ own1: likert(5), b2: likert(4), tr1: likert(5) }).map((c) => c.id)).toEqual(['ownership_vs_blame']);
  });
});
