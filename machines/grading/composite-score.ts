import type { Dimension } from '../content/dimensions.js';
import { clamp, round, tenToPercent } from './scale.js';

/** The dimension weights; they sum to 1. */
export const DIMENSION_WEIGHTS = {
  LER: 0.2,
  DCR: 0.2,
  TrustDelta: 0.15,
  OwnershipFault: 0.2,
  DetachmentLoad: 0.15,
  FrictionSensitivity: 0.1,
} as const satisfies Partial<Record<Dimension, number>>;

const WEIGHTED = Object.keys(DIMENSION_WEIGHTS) as (keyof typeof DIMENSION_WEIGHTS)[];

/**
 * The composite score: the weighted sum of the six weighted dimensions mapped from 1-10 onto
 * 0-100, less the contradiction penalties, kept within 0-100 and rounded to one decimal.
 */
export function compositeScore(dimensions: Record<Dimension, number>, penalty: number): number {
  const weighted = WEIGHTED.reduce((sum, d) => sum + DIMENSION_WEIGHTS[d] * dimensions[d], 0);
  return round(clamp(tenToPercent(weighted) - penalty, 0, 100), 1);
}
