import type { SimulatedClock } from 'xstate';
import { DiagnosticBank, flattenBank } from '../content/diagnostic-bank.js';

// Test data shared by the diagnostic's unit and model-based tests.

/** A small bank: two likert items, a ranking, one vignette without and one with a follow-up. */
export const smallScreens = flattenBank(
  DiagnosticBank.parse({
    version: '9.0.0',
    title: 'Test',
    estimatedMinutes: '1',
    baseline: {
      id: 'baseline',
      label: 'Baseline',
      instructions: 'Rate.',
      items: [
        { id: 'l1', prompt: 'One', reverse: false, dimension: 'LER' },
        { id: 'l2', prompt: 'Two', reverse: true, dimension: 'DCR' },
      ],
    },
    priority_ranking: {
      id: 'rank',
      prompt: 'Rank',
      items: [
        { id: 'r_a', label: 'A', weights: {} },
        { id: 'r_b', label: 'B', weights: {} },
        { id: 'r_c', label: 'C', weights: {} },
      ],
    },
    vignettes: {
      id: 'vignettes',
      label: 'Scenarios',
      instructions: 'Choose.',
      items: [
        {
          id: 'v_plain',
          prompt: 'Plain',
          timeLimitSec: 5,
          options: [
            { id: 'p_first', label: 'First', weights: {} },
            { id: 'p_second', label: 'Second', weights: {} },
          ],
        },
        {
          id: 'v_follow',
          prompt: 'Follow',
          timeLimitSec: 3,
          options: [
            { id: 'f_first', label: 'First', weights: {} },
            { id: 'f_second', label: 'Second', weights: {} },
          ],
          followup: { prompt: 'Sure?', scale: ['1', '2', '3', '4', '5'] },
        },
      ],
    },
  }),
);

/** SimulatedClock fires one generation of timers per call, so a countdown is walked in steps. */
export function elapse(clock: SimulatedClock, ms: number, step = 100): void {
  for (let done = 0; done < ms; done += step) clock.increment(Math.min(step, ms - done));
}
