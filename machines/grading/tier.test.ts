import { describe, expect, it } from 'vitest';
import { describeTier, tierFor } from './tier.js';

const ready = { disqualified: false, readyToInvest: true, readyToStart: true };

describe('tierFor', () => {
  it('gives book_call at 70 or more when ready to invest and to start', () => {
    expect(tierFor(70, ready)).toBe('book_call');
    expect(tierFor(100, ready)).toBe('book_call');
  });

  it('gives homework at 50-69', () => {
    expect(tierFor(69, ready)).toBe('homework');
    expect(tierFor(50, ready)).toBe('homework');
  });

  it('gives homework at 70+ when q1 or q2 is not ready', () => {
    expect(tierFor(85, { ...ready, readyToStart: false })).toBe('homework');
    expect(tierFor(85, { ...ready, readyToInvest: false })).toBe('homework');
  });

  it('gives nurture at 49 or below', () => {
    expect(tierFor(49, ready)).toBe('nurture');
    expect(tierFor(0, ready)).toBe('nurture');
  });

  it('gives nurture when disqualified, whatever the total', () => {
    expect(tierFor(95, { ...ready, disqualified: true })).toBe('nurture');
  });
});

describe('describeTier', () => {
  it('says why, in plain words', () => {
    expect(describeTier('book_call', 72, ready)).toBe(
      'Tier book_call: total 72 is at least 70, the investment is ready (q1) and they can start within 30 days (q2).',
    );
    expect(describeTier('homework', 64, ready)).toBe('Tier homework: total 64 is between 50 and 69.');
    expect(describeTier('homework', 80, { ...ready, readyToInvest: false, readyToStart: false })).toBe(
      'Tier homework: total 80 is 70 or more, but the investment is not ready (q1) and they cannot start within 30 days (q2).',
    );
    expect(describeTier('nurture', 40, ready)).toBe('Tier nurture: total 40 is 49 or below.');
    expect(describeTier('nurture', 80, { ...ready, disqualified: true })).toBe(
      'Tier nurture: disqualified by the survey answers, whatever the total (80).',
    );
  });
});
