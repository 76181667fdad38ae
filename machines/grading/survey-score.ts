import type { QualificationSurvey, ScoredQuestion, SurveyOption } from '../content/survey-schema.js';
import { round } from './scale.js';
import type { SurveyAnswers } from './types.js';

/** The scored (multiple-choice) questions of a survey. */
export function scoredQuestions(survey: QualificationSurvey): ScoredQuestion[] {
  return survey.questions.filter((q): q is ScoredQuestion => q.kind === 'choice');
}

/** The option the visitor chose for a scored question, if any. */
export function chosenOption(survey: QualificationSurvey, answers: SurveyAnswers, questionId: string): SurveyOption | undefined {
  const question = scoredQuestions(survey).find((q) => q.id === questionId);
  const answer = answers[questionId];
  return question?.options.find((o) => o.id === answer);
}

/**
 * The survey score: points earned (chosen score × weight) over the points available (each
 * question's best score × weight), as 0-100 with one decimal. An unanswered or unknown answer
 * earns nothing; free-text questions never count.
 */
export function surveyScore(survey: QualificationSurvey, answers: SurveyAnswers): number {
  let earned = 0;
  let available = 0;
  for (const question of scoredQuestions(survey)) {
    available += Math.max(...question.options.map((o) => o.score * o.weight));
    const chosen = chosenOption(survey, answers, question.id);
    if (chosen) earned += chosen.score * chosen.weight;
  }
  return available === 0 ? 0 : round((earned / available) * 100, 1);
}
