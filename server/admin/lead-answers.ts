import {
  diagnosticBanks,
  flattenBank,
  qualificationSurvey,
  type DiagnosticBank,
  type QualificationSurvey,
  type Screen,
} from '#machines/content/index.js';
import { OLDER_SURVEY_LABELS } from '#machines/grading/older-survey-labels.js';
import { isOlderSurvey, type OlderSurvey } from '#machines/grading/older-survey.js';
import type { DiagnosticAnswerView, DiagnosticSectionView, SurveyAnswerView } from '#machines/protocol/admin/leads.js';

/*
 * A lead's answers as the coach reads them: each question's text beside the answer in words,
 * looked up in the bundled content. Stored answers keep only ids (a survey option id, a likert
 * number, a vignette option id, ranking item ids); an id the content no longer has is still shown,
 * with a note, so nothing the lead said disappears when the content changes.
 */

/** One answer of diagnostics.answers, as stored. */
export interface StoredDiagnosticAnswer {
  item_id: string;
  type: string;
  value: unknown;
  confidence: number | null;
  response_ms: number;
  timed_out: boolean;
}

/** The words beside the 1-5 agreement buttons the visitor pressed. */
const LIKERT_WORDS = ['Strongly disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly agree'];

export const RETIRED_SURVEY_QUESTION = '(question no longer in the survey)';
export const RETIRED_DIAGNOSTIC_ITEM = '(question no longer in the diagnostic)';
export const RETIRED_OPTION = '(answer no longer offered)';
export const RETIRED_SECTION = 'Questions no longer in the diagnostic';
const RANKING_SECTION = 'Priority ranking';

const raw = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
const retired = (value: unknown, note: string) => `${raw(value)} ${note}`;

/** Every survey question in the survey's order, then any answered question the survey no longer has. */
export function surveyAnswerViews(answers: Record<string, unknown>, survey: QualificationSurvey = qualificationSurvey): SurveyAnswerView[] {
  if (isOlderSurvey(answers)) return olderSurveyAnswerViews(answers);
  const views: SurveyAnswerView[] = survey.questions.map((question) => {
    const value = answers[question.id];
    if (value === undefined || value === null || value === '') return { id: question.id, question: question.prompt, answer: null };
    if (question.kind === 'text') return { id: question.id, question: question.prompt, answer: raw(value) };
    const option = question.options.find((o) => o.id === value);
    return { id: question.id, question: question.prompt, answer: option ? option.label : retired(value, RETIRED_OPTION) };
  });
  const known = new Set(survey.questions.map((q) => q.id));
  for (const [id, value] of Object.entries(answers)) {
    if (!known.has(id)) views.push({ id, question: `${id} ${RETIRED_SURVEY_QUESTION}`, answer: raw(value) });
  }
  return views;
}

/** The older eight-answer survey's answers, in its own order and words. */
function olderSurveyAnswerViews(answers: OlderSurvey): SurveyAnswerView[] {
  return (Object.keys(OLDER_SURVEY_LABELS) as (keyof OlderSurvey)[]).map((id) => {
    const labels: { prompt: string; options: Record<string, string> } = OLDER_SURVEY_LABELS[id];
    return { id, question: labels.prompt, answer: labels.options[answers[id]] ?? raw(answers[id]) };
  });
}

/**
 * The bank the answers were taken on: by its recorded version, else the bundled bank that has every
 * answered item (a version written before banks were versioned), else none.
 */
function bankFor(version: string, itemIds: string[], banks: ReadonlyMap<string, DiagnosticBank>): DiagnosticBank | null {
  const exact = banks.get(version);
  if (exact) return exact;
  return (
    [...banks.values()].find((bank) => {
      const ids = new Set(flattenBank(bank).map((screen) => screen.id));
      return itemIds.every((id) => ids.has(id));
    }) ?? null
  );
}

function sectionTitle(bank: DiagnosticBank, screen: Screen): string {
  if (screen.type === 'ranking') return RANKING_SECTION;
  const block = [bank.baseline, bank.advanced_traits, bank.vignettes].find((b) => b?.id === screen.blockId);
  return block?.label ?? screen.blockId;
}

function likertWords(value: unknown): string {
  if (typeof value !== 'number') return retired(value, RETIRED_OPTION);
  const words = LIKERT_WORDS[value - 1];
  return words ? `${value} – ${words}` : retired(value, RETIRED_OPTION);
}

function answerView(screen: Screen, row: StoredDiagnosticAnswer): DiagnosticAnswerView {
  const base = { id: row.item_id, type: row.type, confidence: null, timedOut: row.timed_out, responseMs: row.response_ms };
  if (screen.type === 'likert') return { ...base, question: screen.item.prompt, answer: likertWords(row.value) };
  if (screen.type === 'ranking') {
    const order = Array.isArray(row.value) ? row.value : [row.value];
    const labels = order.map((id) => screen.ranking.items.find((item) => item.id === id)?.label ?? retired(id, RETIRED_OPTION));
    return { ...base, question: screen.ranking.prompt, answer: labels };
  }
  const { vignette } = screen;
  const option = vignette.options.find((o) => o.id === row.value);
  const scale = vignette.followup?.scale;
  const confidence = row.confidence === null ? null : `${row.confidence} – ${scale?.[row.confidence - 1] ?? 'of 5'}`;
  return { ...base, question: vignette.prompt, answer: option ? option.label : retired(row.value, RETIRED_OPTION), confidence };
}

/** A retired item: its id, and its stored value as it was. */
function retiredView(row: StoredDiagnosticAnswer): DiagnosticAnswerView {
  const answer = Array.isArray(row.value) ? row.value.map(raw) : raw(row.value);
  return {
    id: row.item_id,
    type: row.type,
    question: `${row.item_id} ${RETIRED_DIAGNOSTIC_ITEM}`,
    answer,
    confidence: row.confidence === null ? null : `${row.confidence} of 5`,
    timedOut: row.timed_out,
    responseMs: row.response_ms,
  };
}

/**
 * One diagnostic's answers in the order its screens were shown, grouped by the bank's sections
 * (likert blocks, the ranking, the scenarios); items the bank lacks come last in a section of their own.
 */
export function diagnosticSectionViews(
  bankVersion: string,
  rows: StoredDiagnosticAnswer[],
  banks: ReadonlyMap<string, DiagnosticBank> = diagnosticBanks,
): DiagnosticSectionView[] {
  const bank = bankFor(
    bankVersion,
    rows.map((row) => row.item_id),
    banks,
  );
  const byId = new Map(rows.map((row) => [row.item_id, row]));
  const sections: DiagnosticSectionView[] = [];
  for (const screen of bank ? flattenBank(bank) : []) {
    const row = byId.get(screen.id);
    if (!row) continue;
    byId.delete(screen.id);
    const title = sectionTitle(bank!, screen);
    let section = sections.at(-1);
    if (section?.title !== title) sections.push((section = { title, answers: [] }));
    section.answers.push(answerView(screen, row));
  }
  if (byId.size > 0) sections.push({ title: RETIRED_SECTION, answers: [...byId.values()].map(retiredView) });
  return sections;
}
