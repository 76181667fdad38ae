/**
 * The two overall numbers a result carries, each with one name used wherever it is shown (the
 * modal, the results email, the PDF report, the admin, the CSV and the outgoing webhooks), so a
 * coach and a lead talking about "the score" mean the same number (decision 0036):
 * - the leadership score: the diagnostic's composite of the weighted dimensions (compositeScore),
 *   what the lead is shown beside their six dimensions;
 * - the qualification score: diagnostic, survey and Mirror weighted, with the survey's modifiers
 *   (totalScore), which decides the tier. It is the coach's: the lead is shown their tier's next
 *   step, not a number about their budget and timing.
 */
export const SCORE_NAMES = {
  leadership: 'Leadership score',
  qualification: 'Qualification score',
} as const;

/** A 0-100 score as people read it: a whole number out of 100. */
export function formatScore(score: number): string {
  return `${Math.round(score)} / 100`;
}
