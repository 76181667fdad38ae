import type { Dimension } from '../content/dimensions.js';
import { clamp, mean, round, tenToPercent } from './scale.js';

/** The six scale values whose mean is the diagnostic score. */
export const DIAGNOSTIC_SCORE_DIMENSIONS: readonly Dimension[] = [
  'Discipline',
  'Resilience',
  'SelfAware',
  'TrustDelta',
  'LER',
  'OwnershipFault',
];

/** The mean of the six scale values, on the 1-10 scale. */
export function diagnosticMean(dimensions: Record<Dimension, number>): number {
  return mean(DIAGNOSTIC_SCORE_DIMENSIONS.map((d) => dimensions[d]));
}

/**
 * The diagnostic score: the mean of the six scale values mapped from 1-10 onto 0-100, less the
 * contradiction penalties, kept within 0-100 and rounded to one decimal.
 */
export function diagnosticScore(dimensions: Record<Dimension, number>, penalty: number): number {
  return round(clamp(tenToPercent(diagnosticMean(dimensions)) - penalty, 0, 100), 1);
}
