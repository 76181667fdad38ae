import { describe, expect, it } from 'vitest';
import { memoryStore } from './flows/storage.js';
import { countdownAnnouncement, forgetScreen, screenShownAt, secondsLeft, TIME_UP_MESSAGE } from './screen-clock.js';

describe('the countdown', () => {
  it('counts whole seconds down from the limit and stops at zero', () => {
    const shown = 10_000;
    expect(secondsLeft(shown, 50, shown)).toBe(50);
    expect(secondsLeft(shown, 50, shown + 1)).toBe(50);
    expect(secondsLeft(shown, 50, shown + 1000)).toBe(49);
    expect(secondsLeft(shown, 50, shown + 49_001)).toBe(1);
    expect(secondsLeft(shown, 50, shown + 50_000)).toBe(0);
    expect(secondsLeft(shown, 50, shown + 90_000)).toBe(0);
  });

  it('speaks at 30, 20, 10 and 5 seconds and at the end, not every second', () => {
    const spoken = Array.from({ length: 51 }, (_, i) => countdownAnnouncement(50 - i, 50)).filter(Boolean);
    expect(spoken).toEqual(['30 seconds left', '20 seconds left', '10 seconds left', '5 seconds left', TIME_UP_MESSAGE]);
  });
});

describe('screenShownAt', () => {
  it('keeps the first time a screen was shown, so a reload resumes its clock', () => {
    const store = memoryStore();
    expect(screenShownAt('flow:3', store, 1_000)).toBe(1_000);
    expect(screenShownAt('flow:3', store, 9_000)).toBe(1_000);
    forgetScreen('flow:3', store);
    expect(screenShownAt('flow:3', store, 9_000)).toBe(9_000);
  });

  it('does not trust a stored time in the future', () => {
    const store = memoryStore();
    store.setItem('hf:shown:k', '50000');
    expect(screenShownAt('k', store, 1_000)).toBe(1_000);
  });
});
