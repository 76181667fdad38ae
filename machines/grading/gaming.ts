import type { Screen } from '../content/diagnostic-bank.js';
import type { Contradiction } from './contradictions.js';
import { FAST_RESPONSE_MS } from './timing.js';
import type { Answers } from './types.js';

/** The retake prompt shown when gaming is detected. */
export const GAMING_MESSAGE = 'Please take your time to answer thoughtfully. The assessment requires more consideration.';

/** Straight-lining only means something over enough items to include reverse-scored ones. */
const STRAIGHT_LINE_MIN_ITEMS = 8;
/** Below this many answers a run of quick ones is too small a sample to call rushing. */
const RUSHED_MIN_ANSWERS = 4;
/** This many contradictions is a pattern, not a slip. */
const CONTRADICTION_LIMIT = 2;

/**
 * Straight-lining: at least 8 likert answers given by the visitor, all with the same value. The
 * banks mix reverse-scored statements in, so one value everywhere contradicts itself.
 */
export function straightLined(screens: readonly Screen[], answers: Answers): boolean {
  const values = screens.flatMap((s) => {
    const answer = answers[s.id];
    return s.type === 'likert' && answer?.type === 'likert' && !answer.timedOut ? [answer.value] : [];
  });
  return values.length >= STRAIGHT_LINE_MIN_ITEMS && new Set(values).size === 1;
}

/** Rushing: more than half of at least 4 visitor-given answers came in under 2 s. */
export function mostlyRushed(answers: Answers): boolean {
  const given = Object.values(answers).filter((a) => !a.timedOut);
  const quick = given.filter((a) => a.responseTime < FAST_RESPONSE_MS).length;
  return given.length >= RUSHED_MIN_ANSWERS && quick * 2 > given.length;
}

/** Whether the answers look gamed, and why in plain words. */
export interface GamingCheck {
  gamingDetected: boolean;
  reasons: string[];
}

/**
 * Gaming is detected when any of these holds: straight-lined likert answers, most answers under
 * 2 s, or two or more contradictions. A retake is then required.
 */
export function detectGaming(screens: readonly Screen[], answers: Answers, contradictions: readonly Contradiction[]): GamingCheck {
  const reasons = [
    straightLined(screens, answers) && 'every likert statement got the same answer',
    mostlyRushed(answers) && 'most answers came in under 2 seconds',
    contradictions.length >= CONTRADICTION_LIMIT && `${contradictions.length} pairs of answers contradict each other`,
  ].filter((r): r is string => typeof r === 'string');
  return { gamingDetected: reasons.length > 0, reasons };
}
