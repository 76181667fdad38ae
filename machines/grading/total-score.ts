import { round } from './scale.js';

/** How the three parts weigh in the total. */
export const PART_WEIGHTS = { diagnostic: 0.35, survey: 0.35, mirror: 0.3 } as const;

/** The total before survey modifiers: 0.35 diagnostic + 0.35 survey + 0.30 mirror, to a whole number. */
export function weightedTotal(diagnostic: number, survey: number, mirror: number): number {
  return round(PART_WEIGHTS.diagnostic * diagnostic + PART_WEIGHTS.survey * survey + PART_WEIGHTS.mirror * mirror);
}
