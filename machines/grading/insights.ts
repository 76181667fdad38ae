import { DISPLAY_DIMENSIONS, type Dimension, type DisplayDimension } from '../content/dimensions.js';
import type { LeadershipLevel } from './types.js';

/** What keyInsights draws on. */
export interface InsightFacts {
  /** The six dimensions the results page shows, 0-100: insights name them on the same scale. */
  scores: Record<DisplayDimension, number>;
  /** Only a shown dimension with a measured source can be called a strength or a growth edge. */
  measured: readonly Dimension[];
  leadershipLevel: LeadershipLevel;
  contradictions: number;
  timedOut: number;
}

/** Three to five short, visitor-facing observations; ties go to the dimension listed first. */
export function keyInsights(facts: InsightFacts): string[] {
  const shown = (Object.keys(DISPLAY_DIMENSIONS) as DisplayDimension[]).filter((d) =>
    DISPLAY_DIMENSIONS[d].sources.some((source) => facts.measured.includes(source)),
  );
  const ranked = [...shown].sort((a, b) => facts.scores[b] - facts.scores[a]);
  const strongest = ranked[0];
  const weakest = ranked[ranked.length - 1];
  const named = (d: DisplayDimension) => `${DISPLAY_DIMENSIONS[d].label} (${facts.scores[d]}/100)`;
  const insights: string[] = [];
  if (strongest) insights.push(`Your strongest dimension is ${named(strongest)}.`);
  if (weakest && weakest !== strongest) insights.push(`Your growth edge is ${named(weakest)}.`);
  insights.push(`Across the statements you rated, your answers place you at the ${facts.leadershipLevel} level.`);
  if (facts.contradictions > 0) {
    insights.push('Some of your answers pull in different directions; that tension is worth exploring with a coach.');
  }
  if (facts.timedOut > 0) {
    const scenarios = facts.timedOut === 1 ? '1 of the scenarios' : `${facts.timedOut} of the scenarios`;
    insights.push(`Time ran out on ${scenarios}: a default answer was recorded, and it does not count toward your scores.`);
  }
  return insights;
}
