import { describe, expect, it } from 'vitest';
import { isLate, TIMED_GRACE_MS, trustedResponseTime } from './response-time.js';

describe('isLate', () => {
  it('allows the limit plus the network grace, no more', () => {
    expect(isLate(45_000 + TIMED_GRACE_MS, 45)).toBe(false);
    expect(isLate(45_000 + TIMED_GRACE_MS + 1, 45)).toBe(true);
  });
  it('is never late on an untimed screen', () => {
    expect(isLate(10 * 60_000, null)).toBe(false);
  });
});

describe('trustedResponseTime', () => {
  it('keeps a claim that fits the server stamps', () => {
    expect(trustedResponseTime(4200, 4600)).toBe(4200);
    expect(trustedResponseTime(4600, 4200)).toBe(4600);
  });
  it('replaces a claim longer than the server saw by the server measure', () => {
    expect(trustedResponseTime(25_000, 900)).toBe(900);
  });
  it('replaces a claim far shorter than the server saw', () => {
    expect(trustedResponseTime(500, 40_000)).toBe(40_000);
  });
});
