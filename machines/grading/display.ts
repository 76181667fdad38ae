import { DISPLAY_DIMENSIONS, type Dimension, type DisplayDimension, DisplayDimension as DisplayDimensions } from '../content/dimensions.js';
import { mean, round, tenToPercent } from './scale.js';

/** The results page's six scores, 0-100 whole numbers, read off the canonical profile by DISPLAY_DIMENSIONS. */
export function displayScores(dimensions: Record<Dimension, number>): Record<DisplayDimension, number> {
  return Object.fromEntries(
    DisplayDimensions.options.map((d) => [d, round(tenToPercent(mean(DISPLAY_DIMENSIONS[d].sources.map((s) => dimensions[s]))))]),
  ) as Record<DisplayDimension, number>;
}
