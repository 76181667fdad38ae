import { DIMENSION_LABELS, type Dimension } from '../content/schemas';
import type { LeadershipLevel } from './types';

/** What keyInsights draws on. */
export interface InsightFacts {
  dimensions: Record<Dimension, number>;
  /** Only measured dimensions can be called a strength or a growth edge. */
  measured: readonly Dimension[];
  leadershipLevel: LeadershipLevel;
  contradictions: number;
  timedOut: number;
}

/** Three to five short, visitor-facing observations; ties go to the dimension listed first. */
export function keyInsights(facts: InsightFacts): string[] {
  const ranked = [...facts.measured].sort((a, b) => facts.dimensions[b] - facts.dimensions[a]);
  const strongest = ranked[0];
  const weakest = ranked[ranked.length - 1];
  const insights: string[] = [];
  if (strongest) insights.push(`Your strongest dimension is ${DIMENSION_LABELS[strongest]} (${facts.dimensions[strongest]}/10).`);
  if (weakest && weakest !== strongest) {
    insights.push(`Your growth edge is ${DIMENSION_LABELS[weakest]} (${facts.dimensions[weakest]}/10).`);
  }
  insights.push(`Across the statements you rated, your answers place you at the ${facts.leadershipLevel} level.`);
  if (facts.contradictions > 0) {
    insights.push('Some of your answers pull in different directions; that tension is worth exploring with a coach.');
  }
  if (facts.timedOut > 0) {
    insights.push(`Time ran out on ${facts.timedOut} of the scenarios, so those were not counted.`);
  }
  return insights;
}
