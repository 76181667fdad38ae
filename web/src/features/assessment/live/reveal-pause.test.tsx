// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESULTS_DELAY_MS } from '#machines/assessment-flow/assessment-flow.machine.js';
import { useRevealPause } from './reveal-pause.js';

function Screen({ step }: { step: string }) {
  const revealing = useRevealPause(step);
  return <p>{revealing ? 'Your results are ready' : step}</p>;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the reveal pause', () => {
  it('holds the results behind the notice for the delay after the screen saw the grading, then shows them', () => {
    const { rerender } = render(<Screen step="processing" />);
    expect(screen.getByText('processing')).toBeTruthy();
    rerender(<Screen step="results" />);
    expect(screen.getByText('Your results are ready')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(RESULTS_DELAY_MS - 1);
    });
    expect(screen.getByText('Your results are ready')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('results')).toBeTruthy();
  });

  it('shows results at once when the flow was opened at them, and never holds another step', () => {
    const { rerender } = render(<Screen step="results" />);
    expect(screen.getByText('results')).toBeTruthy();
    rerender(<Screen step="survey" />);
    rerender(<Screen step="processing" />);
    rerender(<Screen step="gaming_detected" />);
    expect(screen.getByText('gaming_detected')).toBeTruthy();
  });

  it('lets go at once when the visitor moves on during the pause', () => {
    const { rerender } = render(<Screen step="processing" />);
    rerender(<Screen step="results" />);
    rerender(<Screen step="yes_flow" />);
    expect(screen.getByText('yes_flow')).toBeTruthy();
  });
});
