import { describe, expect, it } from 'vitest';
import { diagnosticScreens } from '../content/index.js';
import { CONTRADICTIONS } from './contradictions.js';
import { detectGaming, GAMING_MESSAGE, mostlyRushed, straightLined } from './gaming.js';
import type { Answer, Answers } from './types.js';

const likertIds = diagnosticScreens.filter((s) => s.type === 'likert').map((s) => s.id);
const likert = (value: number, responseTime = 5_000, timedOut = false): Answer => ({ type: 'likert', value, responseTime, timedOut });
const answerFirst = (n: number, make: (i: number) => Answer): Answers =>
  Object.fromEntries(likertIds.slice(0, n).map((id, i) => [id, make(i)]));

describe('straightLined', () => {
  it('flags 8 or more likert answers that are all the same', () => {
    expect(
      straightLined(
        diagnosticScreens,
        answerFirst(8, () => likert(4)),
      ),
    ).toBe(true);
    expect(
      straightLined(
        diagnosticScreens,
        answerFirst(17, () => likert(1)),
      ),
    ).toBe(true);
  });

  it('needs at least 8 answers and a single value', () => {
    expect(
      straightLined(
        diagnosticScreens,
        answerFirst(7, () => likert(4)),
      ),
    ).toBe(false);
    expect(
      straightLined(
        diagnosticScreens,
        answerFirst(8, (i) => likert(i === 3 ? 5 : 4)),
      ),
    ).toBe(false);
  });

  it('leaves timed-out answers out', () => {
    // 8 answers of 4, but one was the timeout's automatic answer: only 7 count
    expect(
      straightLined(
        diagnosticScreens,
        answerFirst(8, (i) => likert(4, 5_000, i === 0)),
      ),
    ).toBe(false);
  });
});

describe('mostlyRushed', () => {
  it('flags more than half of at least 4 answers under 2 s', () => {
    // 3 of 4 quick: 3 × 2 = 6 > 4
    expect(mostlyRushed(answerFirst(4, (i) => likert(3, i < 3 ? 1_000 : 5_000)))).toBe(true);
  });

  it('does not flag exactly half, or fewer than 4 answers', () => {
    // 2 of 4 quick: 2 × 2 = 4, not more than 4
    expect(mostlyRushed(answerFirst(4, (i) => likert(3, i < 2 ? 1_000 : 5_000)))).toBe(false);
    expect(mostlyRushed(answerFirst(3, () => likert(3, 500)))).toBe(false);
  });
});

describe('detectGaming', () => {
  it('passes varied, considered answers', () => {
    expect(
      detectGaming(
        diagnosticScreens,
        answerFirst(17, (i) => likert((i % 5) + 1)),
        [],
      ),
    ).toEqual({
      gamingDetected: false,
      reasons: [],
    });
  });

  it('lists every reason that applies', () => {
    const answers = answerFirst(10, () => likert(5, 800));
    expect(detectGaming(diagnosticScreens, answers, CONTRADICTIONS.slice(0, 2))).toEqual({
      gamingDetected: true,
      reasons: [
        'every likert statement got the same answer',
        'most answers came in under 2 seconds',
        '2 pairs of answers contradict each other',
      ],
    });
  });

  it('tolerates a single contradiction', () => {
    expect(detectGaming(diagnosticScreens, {}, CONTRADICTIONS.slice(0, 1)).gamingDetected).toBe(false);
  });

  it("uses the spec's default message", () => {
    expect(GAMING_MESSAGE).toBe('Please take your time to answer thoughtfully. The assessment requires more consideration.');
  });
});
