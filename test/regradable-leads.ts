import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { diagnosticScreens } from '#machines/content/index.js';
import { gradeAssessment, type Answers, type GradeInput } from '#machines/grading/index.js';
import { seedResultsFlow } from './flows.js';

/** Every likert statement answered 4 (2 on reverse items): each dimension 7.5, diagnostic 72.2, no contradiction. */
function consideredAnswers(): Answers {
  const answers: Answers = {};
  for (const s of diagnosticScreens) {
    if (s.type === 'likert') answers[s.id] = { type: 'likert', value: s.item.reverse ? 2 : 4, responseTime: 5_000 };
  }
  return answers;
}

const survey = { q1_investment: 'payment_terms', q2_time: 'start_30_days', q3_urgency: 'important', q4_mindset: 'tools' };

/**
 * Three assessments and their totals under the built-in rules (Mirror 50 each; the arithmetic is
 * in machines/grading/rules.test.ts): ready 67 (homework; book_call from 65), urgent 82 (book_call
 * either way), validating 49 (nurture; homework from 45).
 */
export const REGRADE_INPUTS = {
  ready: { answers: consideredAnswers(), survey, mirrorChat: [] },
  urgent: { answers: consideredAnswers(), survey: { ...survey, q1_investment: 'ready_now', q3_urgency: 'critical' }, mirrorChat: [] },
  validating: { answers: consideredAnswers(), survey: { ...survey, q4_mindset: 'validation' }, mirrorChat: [] },
} satisfies Record<string, GradeInput>;

/**
 * A lead graded under the built-in rules a day ago, stored as the grading worker stores one (what
 * was graded kept with the result); with `input` null, one graded before answers were kept, which a
 * re-grade skips. `test` tags it as a test lead.
 */
export async function seedRegradableLead(pool: pg.Pool, input: GradeInput | null, options: { source?: string; test?: boolean } = {}) {
  const graded = gradeAssessment(input ?? REGRADE_INPUTS.ready);
  const email = `regrade-${randomBytes(4).toString('hex')}@example.com`;
  const { leadId, flowId } = await seedResultsFlow(pool, graded.tier, email);
  await pool.query('UPDATE leads SET source = $2, tags = $3 WHERE lead_id = $1', [
    leadId,
    options.source ?? 'website',
    options.test ? ['test'] : [],
  ]);
  await pool.query(
    `INSERT INTO assessment_results (lead_id, flow_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score,
       mirror_score, composite_score, result, bank_version, grading_version, grade_input, created_at)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now() - interval '1 day')`,
    [
      leadId,
      flowId,
      graded.tier,
      graded.archetype,
      graded.totalScore,
      graded.diagnosticScore,
      graded.surveyScore,
      graded.mirrorScore,
      graded.compositeScore,
      graded,
      graded.bankVersion,
      graded.gradingVersion,
      input,
    ],
  );
  return { leadId, flowId, email, tier: graded.tier };
}
