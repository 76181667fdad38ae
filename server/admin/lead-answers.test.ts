import { describe, expect, it } from 'vitest';
import { diagnosticBank, diagnosticScreens, qualificationSurvey } from '#machines/content/index.js';
import { answerRows } from '#core/leads/answer-rows.js';
import { steadyAnswers, SURVEYS } from '#test/journey.js';
import {
  diagnosticSectionViews,
  RETIRED_DIAGNOSTIC_ITEM,
  RETIRED_OPTION,
  RETIRED_SECTION,
  RETIRED_SURVEY_QUESTION,
  surveyAnswerViews,
  type StoredDiagnosticAnswer,
} from './lead-answers.js';

/** A whole diagnostic as grading stores it, in a scrambled order (rows carry no screen order). */
function storedRows(): StoredDiagnosticAnswer[] {
  return answerRows(steadyAnswers()).reverse();
}

describe('surveyAnswerViews', () => {
  it("puts each question's text beside its answer's label, in the survey's order", () => {
    const shuffled = Object.fromEntries(Object.entries(SURVEYS.book_call).reverse());
    const views = surveyAnswerViews(shuffled);
    expect(views.map((v) => v.id)).toEqual(qualificationSurvey.questions.map((q) => q.id));
    expect(views[0]).toEqual({
      id: 'q1_investment',
      question: 'Our leadership coaching program is an investment of $25,000-50,000. Which best describes where you are?',
      answer: 'I am ready to invest now.',
    });
    expect(views.find((v) => v.id === 'q3_urgency')?.answer).toBe('Critical: it is costing us people, results or my health right now.');
    expect(views.find((v) => v.id === 'q5_success')?.answer).toBe(SURVEYS.book_call.q5_success);
    // optional questions left blank are listed as unanswered, not dropped
    expect(views.find((v) => v.id === 'q6_context')?.answer).toBeNull();
  });

  it('keeps retired questions and options, marked, instead of dropping them', () => {
    const views = surveyAnswerViews({ q1_investment: 'gold_plan', q0_budget: 'lots' });
    expect(views.find((v) => v.id === 'q1_investment')?.answer).toBe(`gold_plan ${RETIRED_OPTION}`);
    expect(views.at(-1)).toEqual({ id: 'q0_budget', question: `q0_budget ${RETIRED_SURVEY_QUESTION}`, answer: 'lots' });
  });

  it('shows the older eight-answer survey in its own order and words, none of it marked retired', () => {
    const views = surveyAnswerViews({
      prior_coaching: 'some',
      authority: 'D',
      budget: 'high',
      investment_readiness: 'ready',
      commitment_level: 'committed',
      urgency_pain: 'high',
      team_size: '6-15',
      current_role: 'director',
    });
    expect(views.map((v) => v.id)).toEqual([
      'current_role',
      'team_size',
      'urgency_pain',
      'commitment_level',
      'investment_readiness',
      'budget',
      'authority',
      'prior_coaching',
    ]);
    expect(views[0]).toEqual({ id: 'current_role', question: 'Current role', answer: 'Director' });
    expect(views.find((v) => v.id === 'authority')?.answer).toBe("D: they decide on their organisation's budget");
    expect(views.some((v) => v.question.includes(RETIRED_SURVEY_QUESTION) || v.answer?.includes(RETIRED_OPTION))).toBe(false);
  });
});

describe('diagnosticSectionViews', () => {
  it('orders the answers as the screens were shown, grouped by the bank’s sections, in words', () => {
    const sections = diagnosticSectionViews(diagnosticBank.version, storedRows());
    expect(sections.map((s) => s.title)).toEqual([
      diagnosticBank.baseline.label,
      diagnosticBank.advanced_traits!.label,
      'Priority ranking',
      diagnosticBank.vignettes!.label,
    ]);
    const answers = sections.flatMap((s) => s.answers);
    expect(answers.map((a) => a.id)).toEqual(diagnosticScreens.map((s) => s.id));

    const first = answers[0]!;
    const statement = diagnosticBank.baseline.items[0]!.prompt;
    expect(first).toMatchObject({ question: statement, answer: '3 – Neutral', confidence: null, responseMs: 6000 });
    const ranking = answers.find((a) => a.type === 'ranking')!;
    expect(ranking.question).toBe(diagnosticBank.priority_ranking!.prompt);
    expect(ranking.answer).toEqual(diagnosticBank.priority_ranking!.items.map((item) => item.label));
    const vignette = diagnosticBank.vignettes!.items[0]!;
    expect(answers.find((a) => a.id === vignette.id)).toMatchObject({
      question: vignette.prompt,
      answer: vignette.options[0]!.label,
      confidence: `4 – ${vignette.followup!.scale[3]}`,
    });
  });

  it('reads answers of an unknown bank version against the bundled bank that has all their items', () => {
    const row = { item_id: 'b1', type: 'likert', value: 5, confidence: null, response_ms: 4000, timed_out: false };
    const sections = diagnosticSectionViews('v0-unrecorded', [row]);
    expect(sections).toEqual([
      {
        title: diagnosticBank.baseline.label,
        answers: [expect.objectContaining({ id: 'b1', question: diagnosticBank.baseline.items[0]!.prompt, answer: '5 – Strongly agree' })],
      },
    ]);
  });

  it('shows items and options the bank no longer has, with their ids, in a last section', () => {
    const rows: StoredDiagnosticAnswer[] = [
      { item_id: 'b9_retired', type: 'likert', value: 2, confidence: null, response_ms: 3000, timed_out: false },
      { item_id: 'b2', type: 'likert', value: 9, confidence: null, response_ms: 3000, timed_out: false },
      { item_id: 'priority_ranking', type: 'ranking', value: ['vision', 'gone'], confidence: null, response_ms: 9000, timed_out: false },
    ];
    const sections = diagnosticSectionViews(diagnosticBank.version, rows);
    const answers = sections.flatMap((s) => s.answers);
    expect(answers.find((a) => a.id === 'b2')?.answer).toBe(`9 ${RETIRED_OPTION}`);
    const ranking = answers.find((a) => a.id === 'priority_ranking');
    expect(ranking?.answer).toEqual(['Clarifying where we are heading and why', `gone ${RETIRED_OPTION}`]);
    expect(sections.at(-1)).toEqual({
      title: RETIRED_SECTION,
      answers: [expect.objectContaining({ id: 'b9_retired', question: `b9_retired ${RETIRED_DIAGNOSTIC_ITEM}`, answer: '2' })],
    });
  });
});
