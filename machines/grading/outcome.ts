import { BOOK_CALL_THRESHOLD, HOMEWORK_THRESHOLD } from './tier.js';
import type { Tier } from './types.js';

/** The older fallback grading labels by total score. */
export type QualificationLabel = 'QUALIFIED' | 'MAYBE' | 'NURTURE';

/** The product's tier label for a total: QUALIFIED at 70+, MAYBE at 50 to under 70, NURTURE below 50. */
export function qualificationLabel(totalScore: number): QualificationLabel {
  if (totalScore >= BOOK_CALL_THRESHOLD) return 'QUALIFIED';
  if (totalScore >= HOMEWORK_THRESHOLD) return 'MAYBE';
  return 'NURTURE';
}

/** The fallback grading letter of a label: QUALIFIED = A, MAYBE = B, anything else C. */
export function gradeLetter(label: string): 'A' | 'B' | 'C' {
  if (label === 'QUALIFIED') return 'A';
  if (label === 'MAYBE') return 'B';
  return 'C';
}

/**
 * The results routing, for whatever a grader sent back: book_call or A gives
 * book_call, homework or B gives homework, and QUALIFIED and MAYBE (fallback grading) likewise;
 * anything else, including nothing, gives nurture.
 */
export function outcomeFor(qualification: string | null | undefined): Tier {
  switch (qualification) {
    case 'book_call':
    case 'A':
    case 'QUALIFIED':
      return 'book_call';
    case 'homework':
    case 'B':
    case 'MAYBE':
      return 'homework';
    default:
      return 'nurture';
  }
}
