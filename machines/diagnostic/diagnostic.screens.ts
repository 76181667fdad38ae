import type { Screen } from '../content/diagnostic-bank.js';
import type { RecordedAnswer } from '../protocol/common.js';
import { TIMED_GRACE_MS } from './response-time.js';

/** The likert value a question gets when its countdown runs out. */
const LIKERT_TIMEOUT_VALUE = 3;

/**
 * How long after a timed screen's deadline (limit plus grace) its timer fires: a timer is due by
 * the clock of the process that holds it (BullMQ's), but judged by the database's (the event's
 * `at`), so a little slack keeps a timer from arriving early and being ignored.
 */
const TIMER_SLACK_MS = 500;

/** The countdown a screen runs, in seconds, or null when it is untimed. */
export function timeLimitSec(screen: Screen): number | null {
  return 'timeLimitSec' in screen ? screen.timeLimitSec : null;
}

/**
 * The answer recorded when a screen's countdown runs out: likert 3, a vignette's
 * first option, a ranking as placed so far with unplaced items after it in default order.
 */
export function timeoutAnswer(screen: Screen, placed: readonly string[]): RecordedAnswer {
  const responseTime = (timeLimitSec(screen) ?? 0) * 1000;
  switch (screen.type) {
    case 'likert':
      return { type: 'likert', value: LIKERT_TIMEOUT_VALUE, responseTime, timedOut: true };
    case 'vignette':
      return { type: 'vignette', value: screen.choiceIds[0] ?? '', responseTime, timedOut: true };
    case 'ranking':
      return {
        type: 'ranking',
        value: [...placed, ...screen.choiceIds.filter((id) => !placed.includes(id))],
        responseTime,
        timedOut: true,
      };
  }
}

/**
 * Where 'Timed Questions Ahead' goes: before the first timed screen, counted by position in the
 * list the machine was given rather than by the screens' own index, so any slice of a bank works.
 */
export function firstTimedIndex(screens: readonly Screen[]): number | null {
  const index = screens.findIndex((screen) => timeLimitSec(screen) !== null);
  return index === -1 ? null : index;
}

/** The progress line 'n of total' for a diagnostic snapshot's context. */
export function diagnosticProgress(context: { index: number; screens: Screen[] }): {
  current: number;
  total: number;
} {
  const total = context.screens.length;
  return { current: Math.min(context.index + 1, total), total };
}

/**
 * How long after a timed screen is shown its timer fires: the limit, the network grace, and the
 * slack for clocks. The timer records the timeout answer if the screen is still unanswered.
 */
export function screenTimeoutMs(screen: Screen): number {
  return (timeLimitSec(screen) ?? 0) * 1000 + TIMED_GRACE_MS + TIMER_SLACK_MS;
}
