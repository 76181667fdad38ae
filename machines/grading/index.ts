import { archetypeByName, diagnosticBank, diagnosticBanks, flattenBank, qualificationSurvey } from '../content/index.js';
import { selectArchetype } from './archetype.js';
import { compositeScore } from './composite-score.js';
import { findContradictions } from './contradictions.js';
import { DIAGNOSTIC_SCORE_DIMENSIONS, diagnosticMean, diagnosticScore } from './diagnostic-score.js';
import { scoreDimensions } from './dimensions.js';
import { displayScores } from './display.js';
import { detectGaming, GAMING_MESSAGE } from './gaming.js';
import { keyInsights } from './insights.js';
import { likertAverageLabel } from './leadership-level.js';
import { mirrorScore } from './mirror-score.js';
import { describeOlderSurveyTier, isOlderSurvey, olderSurveyScore, olderSurveyTier, OLDER_SURVEY_MAX_POINTS } from './older-survey.js';
import { clamp, round } from './scale.js';
import { surveyScore } from './survey-score.js';
import {
  delayCapApplies,
  disqualifyingAnswers,
  readyToInvest,
  readyToStart,
  urgencyAdjustment,
  validationAdjustment,
} from './survey-rules.js';
import { describeTier, tierFor } from './tier.js';
import { DEFAULT_RULE_SET, type FiredRule, type GradingRuleSet } from './rules.js';
import { weightedTotal } from './total-score.js';
import type { GradeInput, GradeResult } from './types.js';

export { cannedResult } from './canned.js';
export * from './types.js';
export * from './rules.js';

/** Thrown when answers name a bank version this build does not carry. */
export class UnknownBankVersionError extends Error {
  constructor(readonly version: string) {
    super(`Unknown diagnostic bank version ${version}`);
    this.name = 'UnknownBankVersionError';
  }
}

/** How a result was produced, beyond the answers. */
export interface GradeOptions {
  /** Set when grading runs in the browser because the server could not; shown on the results page. */
  fallback?: boolean;
  /** The rules to grade under; the built-in ones when absent. */
  ruleSet?: GradingRuleSet;
}

const signed = (n: number) => (n >= 0 ? `+${n}` : `−${-n}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Grades a finished assessment: pure and deterministic, so the server, the worker and the
 * browser's fallback all reach the same result from the same input and rules. Throws
 * UnknownBankVersionError when input.bankVersion names a bank that is not bundled.
 */
export function gradeAssessment(input: GradeInput, options: GradeOptions = {}): GradeResult {
  const { version: gradingVersion, rules } = options.ruleSet ?? DEFAULT_RULE_SET;
  const bankVersion = input.bankVersion ?? diagnosticBank.version;
  const bank = diagnosticBanks.get(bankVersion);
  if (!bank) throw new UnknownBankVersionError(bankVersion);
  const survey = qualificationSurvey;
  const screens = flattenBank(bank);
  const reasons: string[] = [];
  const fired: FiredRule[] = [];

  const profile = scoreDimensions(screens, input.answers);
  const { dimensions } = profile;
  if (profile.rushed > 0) {
    reasons.push(`${plural(profile.rushed, 'answer')} came in under 2 seconds and counted 5% less toward the profile.`);
  }
  if (profile.slow > 0) {
    reasons.push(`${plural(profile.slow, 'answer')} took over 30 seconds and counted 3% less toward the profile.`);
  }
  if (profile.timedOut > 0) {
    reasons.push(`${plural(profile.timedOut, 'question')} timed out; the automatic answers gave no evidence.`);
  }
  if (profile.ignored.length > 0) {
    reasons.push(`Ignored answers that do not fit bank ${bank.version}: ${profile.ignored.join(', ')}.`);
  }

  const contradictions = findContradictions(input.answers);
  let penalty = 0;
  for (const c of contradictions) {
    const cost = rules.contradictionPenalties[c.id];
    penalty += cost;
    reasons.push(`Contradiction: the lead ${c.meaning}; ${signed(-cost)} on the diagnostic and composite scores.`);
    // its points come off the diagnostic score, which the diagnostic part below already carries
    fired.push({
      rule: `contradiction:${c.id}`,
      label: `Contradiction (${c.id.replace(/_/g, ' ')}): −${cost} on the diagnostic score`,
      points: null,
    });
  }

  const diagnostic = diagnosticScore(dimensions, penalty);
  const sixMean = round(diagnosticMean(dimensions), 2);
  reasons.push(
    `Diagnostic score ${diagnostic}: the mean of ${DIAGNOSTIC_SCORE_DIMENSIONS.join(', ')} is ${sixMean} ` +
      `on the 1-10 scale, mapped onto 0-100${penalty > 0 ? `, less ${penalty} for contradictions` : ''}.`,
  );
  // the older eight-answer shape has its own points and its own tier rule; the current survey's
  // adjustments, cap and disqualifiers name q-questions it does not have
  const older = isOlderSurvey(input.survey) ? input.survey : null;
  let surveyPoints: number;
  if (older) {
    const { points, total } = olderSurveyScore(older);
    surveyPoints = total;
    const parts = (Object.keys(OLDER_SURVEY_MAX_POINTS) as (keyof typeof points)[]).map(
      (field) => `${field} ${points[field]}/${OLDER_SURVEY_MAX_POINTS[field]}`,
    );
    reasons.push(`Survey score ${surveyPoints} of 100 from the older eight-answer survey: ${parts.join(', ')}.`);
  } else {
    surveyPoints = surveyScore(survey, input.survey);
    reasons.push(`Survey score ${surveyPoints} of 100 from the scored questions.`);
  }
  const mirror = mirrorScore(input.mirrorChat);
  reasons.push(
    mirror.fired.length > 0
      ? `Mirror score ${mirror.score}: 50, then ${mirror.fired.map((s) => `${s.name} ${signed(s.delta)}`).join(', ')}.`
      : `Mirror score ${mirror.score}: no adjustments from the Mirror conversation.`,
  );

  const weights = rules.partWeights;
  const weighted = weightedTotal(diagnostic, surveyPoints, mirror.score, weights);
  reasons.push(
    `Weighted total ${weighted} = ${weights.diagnostic} × ${diagnostic} + ${weights.survey} × ${surveyPoints} + ${weights.mirror} × ${mirror.score}.`,
  );
  fired.push(
    {
      rule: 'diagnostic_part',
      label: `Diagnostic ${diagnostic} × ${weights.diagnostic}`,
      points: round(weights.diagnostic * diagnostic, 2),
    },
    { rule: 'survey_part', label: `Survey ${surveyPoints} × ${weights.survey}`, points: round(weights.survey * surveyPoints, 2) },
    { rule: 'mirror_part', label: `Mirror ${mirror.score} × ${weights.mirror}`, points: round(weights.mirror * mirror.score, 2) },
  );
  let total = weighted;
  const validation = validationAdjustment(survey, input.survey, rules.modifiers);
  if (validation !== 0) {
    total += validation;
    reasons.push(`Seeks validation rather than challenge (q4): ${signed(validation)}, total ${total}.`);
    fired.push({ rule: 'validation_penalty', label: 'Seeks validation rather than challenge (q4)', points: validation });
  }
  const urgency = urgencyAdjustment(survey, input.survey, rules.modifiers);
  if (urgency !== 0) {
    total += urgency;
    reasons.push(`Critical urgency (q3) with the investment ready (q1): ${signed(urgency)}, total ${total}.`);
    fired.push({ rule: 'urgency_bonus', label: 'Critical urgency (q3) with the investment ready (q1)', points: urgency });
  }
  const unclamped = total;
  total = clamp(total, 0, 100);
  if (total !== unclamped) fired.push({ rule: 'total_range', label: 'Total kept within 0-100', points: total - unclamped });
  const { delayCap } = rules.modifiers;
  if (delayCapApplies(survey, input.survey)) {
    reasons.push(
      `Needs time to invest (q1) and cannot start within 3 months (q2): total capped at ${delayCap}` +
        (total > delayCap ? ` (was ${total}).` : `; it was already ${total}.`),
    );
    fired.push({
      rule: 'delay_cap',
      label: `Needs time to invest (q1) and cannot start within 3 months (q2): capped at ${delayCap}`,
      points: Math.min(0, delayCap - total),
    });
    total = Math.min(total, delayCap);
  }

  const disqualifiers = disqualifyingAnswers(survey, input.survey);
  const conditions = {
    disqualified: disqualifiers.length > 0,
    readyToInvest: readyToInvest(survey, input.survey),
    readyToStart: readyToStart(survey, input.survey),
  };
  if (rules.tierConditions.disqualifiersForceNurture) {
    for (const option of disqualifiers) {
      reasons.push(`Auto-disqualified by the answer '${option.id}' (${option.label}): nurture whatever the score.`);
      fired.push({ rule: 'disqualified', label: `Disqualifying answer '${option.id}' (${option.label}): nurture`, points: null });
    }
  }
  const tier = older ? olderSurveyTier(older) : tierFor(total, conditions, rules);
  const tierReason = older ? describeOlderSurveyTier(older) : describeTier(tier, total, conditions, rules);
  reasons.push(tierReason);
  fired.push({ rule: 'tier', label: tierReason, points: null });

  const gaming = detectGaming(screens, input.answers, contradictions);
  if (gaming.gamingDetected) reasons.push(`Gaming detected (${gaming.reasons.join('; ')}): a retake is required.`);

  const choice = selectArchetype(dimensions);
  reasons.push(`Archetype ${choice.name}: ${choice.because}.`);
  const archetype = archetypeByName(choice.name);
  const likertValues = screens.flatMap((s) => {
    const answer = input.answers[s.id];
    return s.type === 'likert' && answer?.type === 'likert' && !answer.timedOut ? [s.item.reverse ? 6 - answer.value : answer.value] : [];
  });
  const leadershipLevel = likertAverageLabel(likertValues);

  const scores = displayScores(dimensions);
  return {
    archetype: choice.name,
    narrative: archetype.narrative,
    scores,
    dimensions,
    keyInsights: keyInsights({
      scores,
      measured: profile.measured,
      leadershipLevel,
      contradictions: contradictions.length,
      timedOut: profile.timedOut,
    }),
    archetypeDetails: { ...archetype, matchedBecause: choice.because },
    compositeScore: compositeScore(dimensions, penalty),
    qualification: tier,
    confidence: screens.length === 0 ? 0 : round(profile.answeredInTime / screens.length, 2),
    qualificationReasoning: reasons,
    rulesFired: fired,
    fallback: options.fallback ?? false,
    leadershipLevel,
    totalScore: total,
    diagnosticScore: diagnostic,
    surveyScore: surveyPoints,
    mirrorScore: mirror.score,
    tier,
    gamingDetected: gaming.gamingDetected,
    requiresRetake: gaming.gamingDetected,
    ...(gaming.gamingDetected ? { message: GAMING_MESSAGE } : {}),
    bankVersion: bank.version,
    gradingVersion,
  };
}
