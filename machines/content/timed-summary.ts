import type { Screen } from './diagnostic-bank.js';

/** What the 'Timed Questions Ahead' interstitial must say, computed from the real screens. */
export interface TimedSummary {
  /** 1-based screen numbers of the timed questions, ascending. */
  numbers: number[];
  /** 0-based index of the first timed screen: the interstitial appears before it. */
  firstIndex: number;
  /** Sum of the timed questions' limits. */
  totalSeconds: number;
  /** e.g. 'Questions 19 to 22 are timed: 180 seconds in total (50, 45, 40 and 45 seconds).' */
  sentence: string;
}

/** The timed screens of a flattened bank, or null when it has none (v1 and built-in banks). */
export function timedSummary(screens: readonly Screen[]): TimedSummary | null {
  const timed = screens.filter((s): s is Extract<Screen, { type: 'vignette' }> => s.type === 'vignette');
  const first = timed[0];
  const last = timed[timed.length - 1];
  if (!first || !last) return null;
  const limits = timed.map((s) => s.timeLimitSec);
  const totalSeconds = limits.reduce((a, b) => a + b, 0);
  const range = first === last ? `Question ${first.number} is` : `Questions ${first.number} to ${last.number} are`;
  const each = limits.length === 1 ? '' : ` (${limits.slice(0, -1).join(', ')} and ${limits[limits.length - 1]} seconds)`;
  return {
    numbers: timed.map((s) => s.number),
    firstIndex: first.index,
    totalSeconds,
    sentence: `${range} timed: ${totalSeconds} seconds in total${each}.`,
  };
}
