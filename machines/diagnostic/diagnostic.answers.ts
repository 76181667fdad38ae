import type { Screen } from '../content/diagnostic-bank.js';
import type { RecordedAnswer } from '../protocol/common.js';
import type { DiagnosticContext } from './diagnostic.context.js';
import { trustedResponseTime } from './response-time.js';

/** When the server applied an event (its `at`, ms by the server's clock), or null for a browser's local copy. */
export function serverTime(event: object): number | null {
  const at = (event as { at?: unknown }).at;
  return typeof at === 'number' ? at : null;
}

/** The screen on show. */
export function currentScreen(context: DiagnosticContext): Screen {
  const screen = context.screens[context.index];
  // Answer states are only entered through `present`, which needs a screen at index.
  if (!screen) throw new Error(`No diagnostic screen at index ${context.index}`);
  return screen;
}

/**
 * How long the screen on show had been shown when the server applied `event`, by the server's
 * clock, or null without its stamps (a browser's copy, or a flow stored before screens were timed).
 */
export function elapsedOnScreen(context: DiagnosticContext, event: object): number | null {
  const at = serverTime(event);
  return at === null || context.shownAt == null ? null : at - context.shownAt;
}

/**
 * The response time to record: the browser's claim, unless the server's stamps make it
 * implausible, then the server's own measure (response-time.ts). Without stamps, the claim.
 */
export function responseTimeOf(context: DiagnosticContext, event: object, claimed: number): number {
  const elapsed = elapsedOnScreen(context, event);
  return elapsed === null ? claimed : trustedResponseTime(claimed, elapsed);
}

/** Records the answer of the screen on show and moves on; the next screen is shown by `event`. */
export function record(context: DiagnosticContext, event: object, answer: RecordedAnswer): Partial<DiagnosticContext> {
  return {
    answers: { ...context.answers, [currentScreen(context).id]: answer },
    index: context.index + 1,
    shownAt: serverTime(event),
    chosen: null,
  };
}

// A placement may leave items out while the visitor drags, but never repeat or invent one.
export function isPartialRanking(order: readonly string[], ids: readonly string[]): boolean {
  return new Set(order).size === order.length && order.every((id) => ids.includes(id));
}
