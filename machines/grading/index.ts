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
  DELAY_CAP,
  delayCapApplies,
  disqualifyingAnswers,
  readyToInvest,
  readyToStart,
  urgencyAdjustment,
  validationAdjustment,
} from './survey-rules.js';
import { describeTier, tierFor } from './tier.js';
import { PART_WEIGHTS, weightedTotal } from './total-score.js';
import { GRADING_VERSION, type GradeInput, type GradeResult } from './types.js';

export { cannedResult } from './canned.js';
export * from './types.js';

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
}

const signed = (n: number) => (n >= 0 ? `+${n}` : `−${-n}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Grades a finished assessment: pure and deterministic, so the server, the worker and the
 * browser's fallback all reach the same result from the same input. Throws
 * UnknownBankVersionError when input.bankVersion names a bank that is not bundled.
 */
export function gradeAssessment(input: GradeInput, options: GradeOptions = {}): GradeResult {
  const bankVersion = input.bankVersion ?? diagnosticBank.version;
  const bank = diagnosticBanks.get(bankVersion);
  if (!bank) throw new UnknownBankVersionError(bankVersion);
  const survey = qualificationSurvey;
  const screens = flattenBank(bank);
  const reasons: string[] = [];

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
  for (const c of contradictions) {
    reasons.push(`Contradiction: the lead ${c.meaning}; ${signed(-c.penalty)} on the diagnostic and composite scores.`);
  }
  const penalty = contradictions.reduce((n, c) => n + c.penalty, 0);

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

  const weighted = weightedTotal(diagnostic, surveyPoints, mirror.score);
  reasons.push(
    `Weighted total ${weighted} = ${PART_WEIGHTS.diagnostic} × ${diagnostic} + ${PART_WEIGHTS.survey} × ${surveyPoints} + ${PART_WEIGHTS.mirror} × ${mirror.score}.`,
  );
  let total = weighted;
  const validation = validationAdjustment(survey, input.survey);
  if (validation !== 0) {
    total += validation;
    reasons.push(`Seeks validation rather than challenge (q4): ${signed(validation)}, total ${total}.`);
  }
  const urgency = urgencyAdjustment(survey, input.survey);
  if (urgency !== 0) {
    total += urgency;
    reasons.push(`Critical urgency (q3) with the investment ready (q1): ${signed(urgency)}, total ${total}.`);
  }
  total = clamp(total, 0, 100);
  if (delayCapApplies(survey, input.survey)) {
    reasons.push(
      `Needs time to invest (q1) and cannot start within 3 months (q2): total capped at ${DELAY_CAP}` +
        (total > DELAY_CAP ? ` (was ${total}).` : `; it was already ${total}.`),
    );
    total = Math.min(total, DELAY_CAP);
  }

  const disqualifiers = disqualifyingAnswers(survey, input.survey);
  const conditions = {
    disqualified: disqualifiers.length > 0,
    readyToInvest: readyToInvest(survey, input.survey),
    readyToStart: readyToStart(survey, input.survey),
  };
  for (const option of disqualifiers) {
    reasons.push(`Auto-disqualified by the answer '${option.id}' (${option.label}): nurture whatever the score.`);
  }
  const tier = older ? olderSurveyTier(older) : tierFor(total, conditions);
  reasons.push(older ? describeOlderSurveyTier(older) : describeTier(tier, total, conditions));

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
    gradingVersion: GRADING_VERSION,
  };
}
