import { describe, expect, it } from 'vitest';
import { DiagnosticBank, flattenBank } from './diagnostic-bank.js';
import { DISPLAY_DIMENSIONS, Dimension, DisplayDimension } from './dimensions.js';
import { timedSummary } from './timed-summary.js';

const followup = { prompt: 'How sure?', scale: ['1', '2', '3', '4', '5'] };
const baselineOnly = {
  version: '9.0.0',
  title: 'Small',
  estimatedMinutes: '1',
  baseline: {
    id: 'baseline',
    label: 'Base',
    instructions: 'Rate',
    items: [
      { id: 'a1', prompt: 'A', reverse: false, dimension: 'LER' },
      { id: 'a2', prompt: 'B', reverse: true, dimension: 'DCR' },
    ],
  },
};
const untimed = {
  ...baselineOnly,
  advanced_traits: {
    id: 'advanced_traits',
    label: 'Adv',
    instructions: 'Rate',
    items: [{ id: 'a3', prompt: 'C', reverse: false, dimension: 'Vision' }],
  },
  priority_ranking: {
    id: 'rank',
    prompt: 'Rank',
    items: [
      { id: 'x', label: 'X', weights: { LER: 1 } },
      { id: 'y', label: 'Y', weights: {} },
    ],
  },
};
const small = {
  ...untimed,
  vignettes: {
    id: 'vignettes',
    label: 'Scenarios',
    instructions: 'Choose',
    items: [
      {
        id: 'v1',
        prompt: 'P',
        timeLimitSec: 30,
        options: [
          { id: 'o1', label: 'O1', weights: {} },
          { id: 'o2', label: 'O2', weights: { DCR: -1 } },
        ],
        followup,
      },
      {
        id: 'v2',
        prompt: 'Q',
        timeLimitSec: 20,
        options: [
          { id: 'o3', label: 'O3', weights: {} },
          { id: 'o4', label: 'O4', weights: {} },
        ],
      },
    ],
  },
};

describe('flattenBank', () => {
  it('lists baseline, advanced traits, ranking, then vignettes, numbered from 1', () => {
    const screens = flattenBank(DiagnosticBank.parse(small));
    expect(screens.map((s) => [s.number, s.type, s.id])).toEqual([
      [1, 'likert', 'a1'],
      [2, 'likert', 'a2'],
      [3, 'likert', 'a3'],
      [4, 'ranking', 'rank'],
      [5, 'vignette', 'v1'],
      [6, 'vignette', 'v2'],
    ]);
    expect(screens.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('carries choice ids, time limits and whether a follow-up comes next', () => {
    const [, , , rank, v1, v2] = flattenBank(DiagnosticBank.parse(small));
    expect(rank).toMatchObject({ type: 'ranking', choiceIds: ['x', 'y'] });
    expect(v1).toMatchObject({ type: 'vignette', choiceIds: ['o1', 'o2'], timeLimitSec: 30, hasFollowup: true });
    expect(v2).toMatchObject({ type: 'vignette', hasFollowup: false });
  });

  it('works for a baseline-only bank', () => {
    expect(flattenBank(DiagnosticBank.parse(baselineOnly)).map((s) => s.id)).toEqual(['a1', 'a2']);
  });
});

describe('timedSummary', () => {
  it('names the timed screens and sums their limits: 30 + 20 = 50', () => {
    expect(timedSummary(flattenBank(DiagnosticBank.parse(small)))).toEqual({
      numbers: [5, 6],
      firstIndex: 4,
      totalSeconds: 50,
      sentence: 'Questions 5 to 6 are timed: 50 seconds in total (30 and 20 seconds).',
    });
  });

  it('is null without timed screens', () => {
    expect(timedSummary(flattenBank(DiagnosticBank.parse(untimed)))).toBeNull();
  });

  it('speaks of a single timed question in the singular', () => {
    const single = { ...small, vignettes: { ...small.vignettes, items: [small.vignettes.items[1]] } };
    expect(timedSummary(flattenBank(DiagnosticBank.parse(single)))?.sentence).toBe('Question 5 is timed: 20 seconds in total.');
  });
});

describe('DiagnosticBank validation', () => {
  it('rejects an id used twice, even across a screen and an option', () => {
    const clash = {
      ...small,
      vignettes: {
        ...small.vignettes,
        items: [
          {
            ...small.vignettes.items[1],
            options: [
              { id: 'a1', label: 'dup', weights: {} },
              { id: 'o9', label: 'ok', weights: {} },
            ],
          },
        ],
      },
    };
    const result = DiagnosticBank.safeParse(clash);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('duplicate id a1');
  });

  it('rejects weights outside -1..1, unknown dimensions and a follow-up scale that is not 5 long', () => {
    const bad = (patch: object) => DiagnosticBank.safeParse({ ...small, ...patch }).success;
    const vignette = small.vignettes.items[0];
    expect(
      bad({
        priority_ranking: {
          ...small.priority_ranking,
          items: [{ id: 'x', label: 'X', weights: { LER: 2 } }, small.priority_ranking.items[1]],
        },
      }),
    ).toBe(false);
    expect(bad({ baseline: { ...small.baseline, items: [{ id: 'a1', prompt: 'A', reverse: false, dimension: 'Charisma' }] } })).toBe(false);
    expect(bad({ vignettes: { ...small.vignettes, items: [{ ...vignette, followup: { prompt: 'p', scale: ['1', '2', '3'] } }] } })).toBe(
      false,
    );
  });
});

describe('DISPLAY_DIMENSIONS', () => {
  it('maps every results-page dimension onto canonical dimensions', () => {
    for (const display of DisplayDimension.options) {
      const { sources } = DISPLAY_DIMENSIONS[display];
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) expect(Dimension.options).toContain(source);
    }
  });

  it('uses the spec labels', () => {
    expect(DISPLAY_DIMENSIONS.LER.label).toBe('Leadership Effectiveness');
    expect(DISPLAY_DIMENSIONS.DCR.label).toBe('Delegation Command');
    expect(DISPLAY_DIMENSIONS.TBR.label).toBe('Trust Building');
    expect(DISPLAY_DIMENSIONS.OAD.label).toBe('Ownership Accountability Detachment');
    expect(DISPLAY_DIMENSIONS.FAD.label).toBe('Friction Adaptability');
  });
});
