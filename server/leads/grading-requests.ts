import type pg from 'pg';
import { z } from 'zod';
import { diagnosticAnswersSchema, mirrorTurnSchema, surveyAnswersSchema } from '../../machines/protocol/common.js';
import { HttpError } from '../http-error.js';
import { insertJob } from '../queues/outbox.js';

/** The spec's lead-assessment payload (section 7), plus what the proxy adds (userAgent, timestamp). */
export const leadAssessmentSchema = z.object({
  leadId: z.uuid().nullish(),
  email: z.string().max(320).nullish(),
  name: z.string().max(200).nullish(),
  assessment: diagnosticAnswersSchema,
  survey: surveyAnswersSchema,
  mirrorChat: z.array(mirrorTurnSchema).max(11).default([]),
  mirrorSessionId: z.uuid().nullish(),
  source: z.string().max(40).nullish(),
  timestamp: z.string().max(40).optional(),
  userAgent: z.string().max(512).optional(),
});
export type LeadAssessment = z.infer<typeof leadAssessmentSchema>;

/** The spec's message for grading asked for before a lead exists (section 5). */
export const NO_LEAD_MESSAGE = 'No lead ID found. Please complete email capture first.';


/** Queues a grading job for a known lead outside any flow; returns the job row id. */
export async function queueLeadAssessment(pool: pg.Pool, data: LeadAssessment): Promise<string> {
  const known = data.leadId ? await pool.query('SELECT 1 FROM leads WHERE lead_id = $1', [data.leadId]) : null;
  if (!data.leadId || !known?.rowCount) throw new HttpError(400, NO_LEAD_MESSAGE);
  return insertJob(pool, {
    queue: 'grading',
    name: 'lead-assessment',
    payload: { flowId: null, request: { leadId: data.leadId, assessment: data.assessment, survey: data.survey, mirrorChat: data.mirrorChat } },
    leadId: data.leadId,
  });
}

export interface JobOutcome {
  status: 'pending' | 'enqueued' | 'active' | 'completed' | 'failed';
  result: unknown;
  lastError: string | null;
}

/** Waits (polling, so any worker process may finish it) until a job row is finished or the time is up. */
export async function waitForJob(pool: pg.Pool, jobId: string, timeoutMs: number): Promise<JobOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await pool.query<{ status: JobOutcome['status']; result: unknown; last_error: string | null }>(
      'SELECT status, result, last_error FROM jobs WHERE id = $1',
      [jobId],
    );
    const row = found.rows[0]!;
    if (row.status === 'completed' || row.status === 'failed' || Date.now() >= deadline) {
      return { status: row.status, result: row.result, lastError: row.last_error };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The stored result of a finished lead-assessment job, in the shape the spec's caller reads. */
export async function assessmentResponse(pool: pg.Pool, jobId: string): Promise<Record<string, unknown> | null> {
  const found = await pool.query<{ result: Record<string, any>; tier: string }>('SELECT result, tier FROM assessment_results WHERE job_id = $1', [jobId]);
  const row = found.rows[0];
  if (!row) return null;
  const { result } = row;
  return {
    success: true,
    ...result,
    tier: row.tier,
    diagnostic: {
      archetype: result.archetype,
      narrative: result.narrative,
      scores: result.scores,
      compositeScore: result.compositeScore,
      confidence: result.confidence,
    },
  };
}
