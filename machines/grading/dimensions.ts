import type { Ranking, Screen, Vignette, Weights } from '../content/diagnostic-bank.js';
import { DIMENSIONS, type Dimension } from '../content/dimensions.js';
import { clamp, mean, round } from './scale.js';
import { FAST_RESPONSE_MS, SLOW_RESPONSE_MS, timingModifier } from './timing.js';
import type { Answers } from './types.js';

/** One piece of evidence about a dimension: -1 (strongly against) to +1 (strongly for). */
export interface Evidence {
  dimension: Dimension;
  signal: number;
}

/** A likert answer as evidence: 1..5 -> -1..+1, reversed (6 - value) for reverse items. */
export function likertSignal(value: number, reverse: boolean): number {
  const adjusted = reverse ? 6 - value : value;
  return (adjusted - 3) / 2;
}

function fromWeights(weights: Weights, factor: number): Evidence[] {
  return DIMENSIONS.flatMap((dimension) => {
    const weight = weights[dimension];
    return weight === undefined ? [] : [{ dimension, signal: weight * factor }];
  });
}

/** The chosen option's weights as evidence, or null when the option is not in the vignette. */
export function vignetteEvidence(vignette: Vignette, optionId: string): Evidence[] | null {
  const option = vignette.options.find((o) => o.id === optionId);
  return option ? fromWeights(option.weights, 1) : null;
}

/**
 * A ranking as evidence: position r of n counts (n - 1 - 2r) / (n - 1) times the item's weights,
 * so first place is +1×, last is -1× and the middle is neutral. Null unless `order` places every
 * item exactly once, because a partial ranking says nothing about what came last.
 */
export function rankingEvidence(ranking: Ranking, order: readonly string[]): Evidence[] | null {
  const n = ranking.items.length;
  const complete = order.length === n && new Set(order).size === n && ranking.items.every((i) => order.includes(i.id));
  if (!complete) return null;
  return order.flatMap((id, position) => {
    const item = ranking.items.find((i) => i.id === id);
    return item ? fromWeights(item.weights, (n - 1 - 2 * position) / (n - 1)) : [];
  });
}

/** A dimension's 1-10 score from its evidence: 5 + 5 × mean signal, clamped to 1-10; 5 with none. */
export function dimensionScore(signals: readonly number[]): number {
  if (signals.length === 0) return 5;
  return clamp(round(5 + 5 * mean(signals), 2), 1, 10);
}

/** The canonical profile plus what the grader noticed while building it. */
export interface DimensionScoring {
  dimensions: Record<Dimension, number>;
  /** Screens answered by the visitor before their countdown ran out. */
  answeredInTime: number;
  /** Answers under 2 s, each counted at 95%. */
  rushed: number;
  /** Answers over 30 s, each counted at 97%. */
  slow: number;
  /** Auto-answers after a timeout: they are the machine's choice, not the visitor's, so they give no evidence. */
  timedOut: number;
  /** Answer keys that match no screen, or whose value does not fit the screen. */
  ignored: string[];
  /** Dimensions with at least one piece of evidence; the rest sit at the default 5. */
  measured: Dimension[];
}

function screenEvidence(screen: Screen, answer: Answers[string]): Evidence[] | null {
  if (screen.type === 'likert' && answer.type === 'likert') {
    return [{ dimension: screen.item.dimension, signal: likertSignal(answer.value, screen.item.reverse) }];
  }
  if (screen.type === 'vignette' && answer.type === 'vignette') return vignetteEvidence(screen.vignette, answer.value);
  if (screen.type === 'ranking' && answer.type === 'ranking') return rankingEvidence(screen.ranking, answer.value);
  return null;
}

/**
 * Builds the 1-10 profile from the answers, walking screens in bank order so the result does not
 * depend on the order of the answers' keys.
 */
export function scoreDimensions(screens: readonly Screen[], answers: Answers): DimensionScoring {
  const signals = new Map<Dimension, number[]>(DIMENSIONS.map((d) => [d, []]));
  const known = new Set(screens.map((s) => s.id));
  const ignored = Object.keys(answers)
    .filter((id) => !known.has(id))
    .sort();
  let answeredInTime = 0;
  let rushed = 0;
  let slow = 0;
  let timedOut = 0;
  for (const screen of screens) {
    const answer = answers[screen.id];
    if (!answer) continue;
    if (answer.timedOut) {
      timedOut += 1;
      continue;
    }
    const evidence = screenEvidence(screen, answer);
    if (!evidence) {
      ignored.push(screen.id);
      continue;
    }
    answeredInTime += 1;
    if (answer.responseTime < FAST_RESPONSE_MS) rushed += 1;
    if (answer.responseTime > SLOW_RESPONSE_MS) slow += 1;
    const factor = 1 + timingModifier(answer.responseTime);
    for (const { dimension, signal } of evidence) signals.get(dimension)?.push(signal * factor);
  }
  const dimensions = Object.fromEntries(DIMENSIONS.map((d) => [d, dimensionScore(signals.get(d) ?? [])])) as Record<Dimension, number>;
  const measured = DIMENSIONS.filter((d) => (signals.get(d) ?? []).length > 0);
  return { dimensions, answeredInTime, rushed, slow, timedOut, ignored, measured };
}
