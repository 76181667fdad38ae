import { DEFAULT_GRADING_RULES, type GradingRules } from './rules.js';
import { round } from './scale.js';

/** How the three parts weigh in the total under the built-in rules. */
export const PART_WEIGHTS = DEFAULT_GRADING_RULES.partWeights;

/**
 * The total before survey modifiers, to a whole number: under the built-in rules
 * 0.35 diagnostic + 0.35 survey + 0.30 mirror.
 */
export function weightedTotal(
  diagnostic: number,
  survey: number,
  mirror: number,
  weights: GradingRules['partWeights'] = PART_WEIGHTS,
): number {
  return round(weights.diagnostic * diagnostic + weights.survey * survey + weights.mirror * mirror);
}
