import { DEFAULT_GRADING_RULES, type GradingRules } from './rules.js';
import type { Tier } from './types.js';

/** book_call needs at least this total under the built-in rules. */
export const BOOK_CALL_THRESHOLD = DEFAULT_GRADING_RULES.thresholds.bookCall;
/** homework needs at least this total under the built-in rules; below it is nurture. */
export const HOMEWORK_THRESHOLD = DEFAULT_GRADING_RULES.thresholds.homework;

type TierRules = Pick<GradingRules, 'thresholds' | 'tierConditions'>;

/** The answer conditions the tier depends on besides the total. */
export interface TierConditions {
  disqualified: boolean;
  readyToInvest: boolean;
  readyToStart: boolean;
}

/** True when the rules let a disqualifying answer force nurture and the lead gave one. */
function forcedNurture(conditions: TierConditions, rules: TierRules): boolean {
  return conditions.disqualified && rules.tierConditions.disqualifiersForceNurture;
}

/** The readiness conditions book_call needs under these rules that the lead does not meet. */
function unmetReadiness(conditions: TierConditions, rules: TierRules): string[] {
  return [
    rules.tierConditions.bookCallNeedsReadyToInvest && !conditions.readyToInvest && 'the investment is not ready (q1)',
    rules.tierConditions.bookCallNeedsReadyToStart && !conditions.readyToStart && 'they cannot start within 30 days (q2)',
  ].filter((reason): reason is string => typeof reason === 'string');
}

/**
 * Under the built-in rules: nurture when disqualified; book_call at 70+ with q1 and q2 ready;
 * homework at 50+ otherwise (including 70+ leads who are not ready on q1 or q2); nurture below 50.
 * Other rules move the thresholds and switch the conditions.
 */
export function tierFor(totalScore: number, conditions: TierConditions, rules: TierRules = DEFAULT_GRADING_RULES): Tier {
  if (forcedNurture(conditions, rules)) return 'nurture';
  if (totalScore >= rules.thresholds.bookCall && unmetReadiness(conditions, rules).length === 0) return 'book_call';
  if (totalScore >= rules.thresholds.homework) return 'homework';
  return 'nurture';
}

/** Why a total and its conditions gave this tier, in plain words for the coach. */
export function describeTier(tier: Tier, totalScore: number, conditions: TierConditions, rules: TierRules = DEFAULT_GRADING_RULES): string {
  const { bookCall, homework } = rules.thresholds;
  if (tier === 'book_call') {
    const needs = [
      rules.tierConditions.bookCallNeedsReadyToInvest && 'the investment is ready (q1)',
      rules.tierConditions.bookCallNeedsReadyToStart && 'they can start within 30 days (q2)',
    ].filter((reason): reason is string => typeof reason === 'string');
    return `Tier book_call: total ${totalScore} is at least ${bookCall}${needs.length > 0 ? `, ${needs.join(' and ')}` : ''}.`;
  }
  if (tier === 'homework') {
    if (totalScore < bookCall) return `Tier homework: total ${totalScore} is between ${homework} and ${bookCall - 1}.`;
    return `Tier homework: total ${totalScore} is ${bookCall} or more, but ${unmetReadiness(conditions, rules).join(' and ')}.`;
  }
  return forcedNurture(conditions, rules)
    ? `Tier nurture: disqualified by the survey answers, whatever the total (${totalScore}).`
    : `Tier nurture: total ${totalScore} is ${homework - 1} or below.`;
}
