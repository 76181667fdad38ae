import type { QualificationSurvey, SurveyFlag, SurveyOption } from '../content/survey-schema.js';
import { DEFAULT_GRADING_RULES, type GradingRules } from './rules.js';
import { chosenOption, scoredQuestions } from './survey-score.js';
import type { SurveyAnswers } from './types.js';

/** q1, the investment question: one of the two critical questions. */
const INVESTMENT_QUESTION = 'q1_investment';
/** q2, the start-date question: the other critical question. */
const TIMING_QUESTION = 'q2_time';

type Modifiers = GradingRules['modifiers'];

function flagged(option: SurveyOption | undefined, flag: SurveyFlag): boolean {
  return option?.flag === flag;
}

/** The chosen options that auto-disqualify (q1 'not_ready', q2 'schedule_full'); any one forces nurture. */
export function disqualifyingAnswers(survey: QualificationSurvey, answers: SurveyAnswers): SurveyOption[] {
  return scoredQuestions(survey).flatMap((q) => {
    const chosen = chosenOption(survey, answers, q.id);
    return chosen && flagged(chosen, 'disqualify') ? [chosen] : [];
  });
}

/** True when q1 needs time and q2 cannot start for 3 months: the total is capped (at 49 under the built-in rules). */
export function delayCapApplies(survey: QualificationSurvey, answers: SurveyAnswers): boolean {
  return (
    flagged(chosenOption(survey, answers, INVESTMENT_QUESTION), 'delay') && flagged(chosenOption(survey, answers, TIMING_QUESTION), 'delay')
  );
}

/** Minus the validation penalty (15 built in) when any chosen option seeks validation (q4 'validation'), else 0. */
export function validationAdjustment(
  survey: QualificationSurvey,
  answers: SurveyAnswers,
  modifiers: Modifiers = DEFAULT_GRADING_RULES.modifiers,
): number {
  const seeksValidation = scoredQuestions(survey).some((q) => flagged(chosenOption(survey, answers, q.id), 'validation'));
  return seeksValidation ? -modifiers.validationPenalty : 0;
}

/** True when q1 says the money is ready (ready_now or payment_terms). */
export function readyToInvest(survey: QualificationSurvey, answers: SurveyAnswers): boolean {
  return flagged(chosenOption(survey, answers, INVESTMENT_QUESTION), 'ready');
}

/** True when q2 says they can start within 30 days (start_immediately or start_30_days). */
export function readyToStart(survey: QualificationSurvey, answers: SurveyAnswers): boolean {
  return flagged(chosenOption(survey, answers, TIMING_QUESTION), 'ready');
}

/** The urgency bonus (10 built in) when urgency is critical (q3 'critical') and q1 is ready_now or payment_terms, else 0. */
export function urgencyAdjustment(
  survey: QualificationSurvey,
  answers: SurveyAnswers,
  modifiers: Modifiers = DEFAULT_GRADING_RULES.modifiers,
): number {
  const critical = scoredQuestions(survey).some((q) => flagged(chosenOption(survey, answers, q.id), 'critical'));
  return critical && readyToInvest(survey, answers) ? modifiers.urgencyBonus : 0;
}
