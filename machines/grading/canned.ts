import { GRADING_VERSION } from './rules.js';
import type { AssessmentResult } from './types.js';

/** The canned narrative. */
const CANNED_NARRATIVE = 'Assessment completed with fallback processing';

/**
 * The result shown when neither the server nor local grading could produce one:
 * nurture, Emerging Leader, and the fixed scores 65 (leadership), 60 (delegation) and 70 (vision),
 * which land on LER, DCR and VIS of the results page.
 */
export function cannedResult(): AssessmentResult {
  return {
    archetype: 'Emerging Leader',
    narrative: CANNED_NARRATIVE,
    scores: { LER: 65, DCR: 60, VIS: 70 },
    keyInsights: [],
    archetypeDetails: null,
    compositeScore: 65,
    qualification: 'nurture',
    confidence: 0,
    qualificationReasoning: ['The answers could not be graded, so a standard result was shown and the lead was placed in nurture.'],
    fallback: true,
    bankVersion: null,
    gradingVersion: GRADING_VERSION,
  };
}
