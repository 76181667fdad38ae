import { describe, expect, it } from 'vitest';
import { MIRROR_SIGNALS, mirrorScore } from './mirror-score.js';
import type { MirrorTurn } from './types.js';

const user = (...contents: string[]): MirrorTurn[] => contents.map((content) => ({ role: 'user', content }));
const names = (chat: MirrorTurn[]) => mirrorScore(chat).fired.map((s) => s.name);
const long = 'Last week in the planning meeting with my two directors I';

describe('mirrorScore', () => {
  it('carries the adjustments', () => {
    expect(MIRROR_SIGNALS.map((s) => [s.name, s.delta])).toEqual([
      ['takes ownership', 10],
      ['asks questions', 5],
      ['shows vulnerability', 10],
      ['reflects on learning', 15],
      ['names patterns', 10],
      ['blames others', -20],
      ['is defensive', -10],
      ['avoids examples', -10],
      ['stays on the surface', -15],
      ['seeks validation', -10],
    ]);
  });

  it('stays at a neutral 50 without any user turn', () => {
    expect(mirrorScore([])).toEqual({ score: 50, fired: [] });
    expect(mirrorScore([{ role: 'mirror', content: 'What was the hardest decision this month? I blame them.' }])).toEqual({
      score: 50,
      fired: [],
    });
  });

  it('detects each positive signal', () => {
    expect(names(user(`${long} should have said no to the deadline.`))).toEqual(['takes ownership']);
    expect(names(user(`${long} asked them: how would you handle it?`))).toEqual(['asks questions']);
    expect(names(user(`${long} was honestly scared to tell them the truth.`))).toEqual(['shows vulnerability']);
    expect(names(user(`${long} realised the team needed the context first.`))).toEqual(['reflects on learning']);
    expect(names(user(`${long} saw the same pattern as in my last role.`))).toEqual(['names patterns']);
  });

  it('detects each negative signal', () => {
    expect(names(user(`${long} watched them miss it; it was their fault entirely.`))).toEqual(['blames others']);
    expect(names(user(`${long} told them plainly it was not my fault at all.`))).toEqual(['is defensive']);
    expect(
      names(
        user('It is complicated with the people and the situation overall', 'The situation is generally difficult with everyone involved'),
      ),
    ).toEqual(['avoids examples']);
    expect(names(user('Fine.'))).toEqual(['stays on the surface']);
    expect(names(user(`${long} pushed back. Don’t you think that was fair`))).toEqual(['seeks validation']);
  });

  it('adds them up from 50: a reflective answer reaches 100', () => {
    const chat = user(
      'Honestly I should have spoken up earlier. Last week in the meeting I realised I keep doing this. What would you do?',
    );
    // 50 + 10 (ownership) + 5 (question) + 10 (vulnerability) + 15 (learning) + 10 (pattern) = 100
    expect(mirrorScore(chat)).toMatchObject({ score: 100 });
    expect(names(chat)).toEqual(['takes ownership', 'asks questions', 'shows vulnerability', 'reflects on learning', 'names patterns']);
  });

  it('counts each signal once and clamps at 0', () => {
    const chat = user("They never listen. It's not my fault. Right?", 'Lazy team.');
    // 50 - 20 (blame) + 5 (question) - 10 (defensive) - 10 (no example in 2 turns)
    //    - 15 (5 words per turn on average) - 10 (validation) = -10, clamped to 0
    expect(mirrorScore(chat).score).toBe(0);
    expect(names(chat)).toEqual([
      'asks questions',
      'blames others',
      'is defensive',
      'avoids examples',
      'stays on the surface',
      'seeks validation',
    ]);
  });

  it('reads only what the visitor wrote', () => {
    const chat: MirrorTurn[] = [
      { role: 'mirror', content: 'Did you learn something? What pattern do you see?' },
      { role: 'user', content: `${long} decided to move the launch by two weeks.` },
    ];
    expect(mirrorScore(chat)).toEqual({ score: 50, fired: [] });
  });
});
