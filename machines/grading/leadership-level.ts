import { mean } from './scale.js';
import type { LeadershipLevel } from './types.js';

/**
 * The older likert-average labels: 4 or more is Established Leader, 3 or more Developing Leader,
 * anything lower (or no likert answers) Emerging Leader. Pass reverse-adjusted values, so that
 * strongly agreeing with a weakness does not raise the average.
 */
export function likertAverageLabel(values: readonly number[]): LeadershipLevel {
  if (values.length === 0) return 'Emerging Leader';
  const average = mean(values);
  if (average >= 4) return 'Established Leader';
  if (average >= 3) return 'Developing Leader';
  return 'Emerging Leader';
}
