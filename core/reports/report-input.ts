// What a report prints and for whom: shared by the PDF's parts, which report-pdf.ts assembles.
import type { DisplayDimension } from '#machines/content/index.js';
import type { Tier } from '#machines/protocol/common.js';

/** What a report shows: the result object, reduced to its printable parts. */
export interface ReportInput {
  archetype: string;
  narrative: string;
  /** The six display dimensions, 0-100; a canned or diagnostic-only result may carry only some. */
  scores: Partial<Record<DisplayDimension, number>>;
  /** The leadership score (machines/grading/score-names.ts), 0-100; null when the result does not carry one. */
  leadershipScore: number | null;
  keyInsights: readonly string[];
  /** Chooses the next step; null when only the diagnostic was graded. */
  tier: Tier | null;
  fallback: boolean;
}

/** Whom the report is for. */
export interface ReportLead {
  name: string | null;
}
