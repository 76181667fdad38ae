import type { ContradictionId } from './rules.js';
import type { Answers } from './types.js';

/**
 * One side of a contradiction. A likert statement is *held* when answered 4 or 5 (agree or
 * strongly agree) by the visitor; a vignette option is held when the visitor chose it. Timed-out
 * auto-answers never hold anything: the visitor did not say them.
 */
export type Claim = { likert: string } | { vignette: string; option: string };

/** A pair of claims that cannot both be true of one leader; what holding both costs is a rule (GradingRules.contradictionPenalties). */
export interface Contradiction {
  /** Its key in the rules' contradictionPenalties. */
  id: ContradictionId;
  first: Claim;
  second: Claim;
  /** What holding both means, in plain words. */
  meaning: string;
}

/**
 * The contradictions. "X with Y" means the visitor holds both X and Y
 * (see Claim): each pair is worded so that agreeing with both is self-contradictory.
 */
export const CONTRADICTIONS: readonly Contradiction[] = [
  {
    id: 'delegation_vs_control',
    first: { likert: 'dcr1' },
    second: { vignette: 'vig_scale', option: 'scale_maintain' },
    meaning:
      'agreed that they hand important decisions to the team (dcr1) yet chose to keep reviewing everything themselves while scaling (scale_maintain)',
  },
  {
    id: 'ownership_vs_blame',
    first: { likert: 'own1' },
    second: { likert: 'b2' },
    meaning:
      'agreed that they look first at their own part in a miss (own1) and that misses are usually someone on the team not doing their part (b2)',
  },
  {
    id: 'trust_vs_review',
    first: { likert: 'tr1' },
    second: { likert: 'tr3' },
    meaning:
      "agreed that they trust the team to decide without checking (tr1) and that they must review the team's work before it goes out (tr3)",
  },
];

/** Whether the visitor holds a claim, in the sense defined on Claim. */
export function holds(answers: Answers, claim: Claim): boolean {
  if ('likert' in claim) {
    const answer = answers[claim.likert];
    return answer?.type === 'likert' && !answer.timedOut && answer.value >= 4;
  }
  const answer = answers[claim.vignette];
  return answer?.type === 'vignette' && !answer.timedOut && answer.value === claim.option;
}

/** The contradictions the visitor holds both sides of, in CONTRADICTIONS order. */
export function findContradictions(answers: Answers): Contradiction[] {
  return CONTRADICTIONS.filter((c) => holds(answers, c.first) && holds(answers, c.second));
}
