import type { Tier } from './types.js';

/** book_call needs at least this total. */
export const BOOK_CALL_THRESHOLD = 70;
/** homework needs at least this total; below it is nurture. */
export const HOMEWORK_THRESHOLD = 50;

/** The answer conditions the tier depends on besides the total. */
export interface TierConditions {
  disqualified: boolean;
  readyToInvest: boolean;
  readyToStart: boolean;
}

/**
 * The tier of Nurture when disqualified; book_call at 70+ with q1 and q2 ready;
 * homework at 50+ otherwise (including 70+ leads who are not ready on q1 or q2); nurture below 50.
 */
export function tierFor(totalScore: number, conditions: TierConditions): Tier {
  if (conditions.disqualified) return 'nurture';
  if (totalScore >= BOOK_CALL_THRESHOLD && conditions.readyToInvest && conditions.readyToStart) return 'book_call';
  if (totalScore >= HOMEWORK_THRESHOLD) return 'homework';
  return 'nurture';
}

/** Why a total and its conditions gave this tier, in plain words for the coach. */
export function describeTier(tier: Tier, totalScore: number, conditions: TierConditions): string {
  if (tier === 'book_call') {
    return `Tier book_call: total ${totalScore} is at least ${BOOK_CALL_THRESHOLD}, the investment is ready (q1) and they can start within 30 days (q2).`;
  }
  if (tier === 'homework') {
    if (totalScore < BOOK_CALL_THRESHOLD) {
      return `Tier homework: total ${totalScore} is between ${HOMEWORK_THRESHOLD} and ${BOOK_CALL_THRESHOLD - 1}.`;
    }
    const missing = [
      !conditions.readyToInvest && 'the investment is not ready (q1)',
      !conditions.readyToStart && 'they cannot start within 30 days (q2)',
    ].filter(Boolean);
    return `Tier homework: total ${totalScore} is ${BOOK_CALL_THRESHOLD} or more, but ${missing.join(' and ')}.`;
  }
  return conditions.disqualified
    ? `Tier nurture: disqualified by the survey answers, whatever the total (${totalScore}).`
    : `Tier nurture: total ${totalScore} is ${HOMEWORK_THRESHOLD - 1} or below.`;
}
