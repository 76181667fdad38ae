import type pg from 'pg';
import type { Tier } from '#machines/protocol/common.js';

/** What a seeded result says; the scores default to one number for both. */
export interface SeededOutcome {
  tier: Tier | null;
  archetype?: string;
  qualificationScore?: number;
  leadershipScore?: number;
  /** A rushed attempt (gaming detected): stored without a tier, as the grading worker stores one. */
  rushed?: boolean;
  flowId?: string | null;
  createdAt?: Date;
}

/**
 * A graded assessment of the lead, stored as the grading worker stores one: lead_facts reads the
 * lead's tier, archetype and scores from its latest outcome, so this is how a test gives a lead a grade.
 */
export async function seedOutcome(pool: pg.Pool, leadId: string, outcome: SeededOutcome): Promise<string> {
  const rushed = outcome.rushed ?? false;
  const tier = rushed ? null : (outcome.tier ?? 'nurture');
  const qualification = outcome.qualificationScore ?? 50;
  const leadership = outcome.leadershipScore ?? qualification;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO assessment_results (lead_id, flow_id, tier, qualification, archetype, total_score, diagnostic_score, survey_score,
       mirror_score, composite_score, gaming_detected, result, bank_version, grading_version, created_at)
     VALUES ($1, $2, $3, $3, $4, $5, $5, $5, 50, $6, $7, $8, '2.0.0', 'grading-1', coalesce($9, now()))
     RETURNING id`,
    [
      leadId,
      outcome.flowId ?? null,
      tier,
      outcome.archetype ?? 'Visionary Firebrand',
      qualification,
      leadership,
      rushed,
      { archetype: outcome.archetype ?? 'Visionary Firebrand', tier, gamingDetected: rushed },
      outcome.createdAt ?? null,
    ],
  );
  return rows[0]!.id;
}
