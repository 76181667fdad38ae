import { describe, expect, it } from 'vitest';
import { backoffDelay, isAhead, jsonEqual, latest } from './reconcile.js';

describe('version reconciliation', () => {
  it('adopts a server copy only when its version is ahead of the confirmed one', () => {
    expect(isAhead(0, null)).toBe(true);
    expect(isAhead(4, 3)).toBe(true);
    expect(isAhead(3, 3)).toBe(false);
    expect(isAhead(2, 3)).toBe(false);
  });

  it('of a POST answer and a push, keeps the later version, the first on a tie', () => {
    const answer = { version: 5, from: 'answer' };
    const push = { version: 6, from: 'push' };
    expect(latest(answer, push)).toBe(push);
    expect(latest(push, answer)).toBe(push);
    expect(latest(answer, { version: 5, from: 'push' })).toBe(answer);
    expect(latest(null, push)).toBe(push);
    expect(latest(answer, null)).toBe(answer);
    expect(latest(null, null)).toBeNull();
  });
});

describe('jsonEqual', () => {
  it('ignores key order, as jsonb reorders keys', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(true);
  });

  it('treats a key holding undefined as absent, as JSON drops it', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
  });

  it('sees any difference in values, array order or shape', () => {
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ a: { b: 1 } }, { a: { b: 1, c: 2 } })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, with half of each wait random', () => {
    const none = () => 0;
    const all = () => 1;
    // attempt n waits between ceiling/2 and ceiling, ceiling = min(max, base * 2^n)
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, { baseMs: 500, maxMs: 15_000, random: none }))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, { baseMs: 500, maxMs: 15_000, random: all }))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(10, { baseMs: 500, maxMs: 15_000, random: all })).toBe(15_000);
    expect(backoffDelay(1000, { baseMs: 500, maxMs: 15_000, random: none })).toBe(7_500);
  });
});
