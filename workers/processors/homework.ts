import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import { z } from 'zod';
import { flowResultSchema, homeworkSourceSchema } from '#machines/protocol/assessment-flow.js';
import { coachAddress } from '#core/email/coach.js';
import { inTransaction } from '#core/db/transaction.js';
import {
  deliverEmail,
  markEmailFailed,
  recordJobEmail,
  reopenFailedEmail,
  takeOverFailedEmail,
  type EmailDraft,
} from '#core/email/outbox.js';
import { resourcesFor } from '#core/email/resources.js';
import { homeworkEmail } from '#core/email/templates.js';
import { smtpSender } from '#core/email/transport.js';
import { reportLink } from '#core/reports/report-link.js';
import { diagnosticOfGradedResult } from '#core/reports/store.js';
import { readSiteSettings } from '#core/site/settings.js';
import type { QueueProcessor } from './processor.js';

/** Homework is always a flow's: its sendHomework effect wrote the job. */
const flowIdSchema = z.object({ flowId: z.uuid() });

// A flow enters homework_processing only from a results screen, so it always carries its result.
const payloadSchema = flowIdSchema.extend({
  request: z.object({
    leadId: z.uuid(),
    source: homeworkSourceSchema,
    diagnosticData: flowResultSchema,
  }),
});

/**
 * Where the homework goes: the lead's stored address and name, never what a visitor typed in this
 * flow (someone who typed another person's address reaches that person only with the coach's own
 * template, addressed by their own name).
 */
async function recipientOf(pool: pg.Pool, leadId: string): Promise<{ email: string; name: string }> {
  const lead = await pool.query<{ email: string; name: string }>('SELECT email, name FROM leads WHERE lead_id = $1', [leadId]);
  const found = lead.rows[0];
  if (!found) throw new UnrecoverableError('The lead has no email address to send homework to');
  return found;
}

/** Another homework email of the same flow and grading that stands for this job's (skipped over the per-recipient limit included). */
interface SentBefore {
  emailId: string;
  status: 'pending' | 'sent' | 'recorded' | 'skipped';
}

/**
 * Stores this job's email, unless the flow already has this homework for the same graded result:
 * one homework email per flow and grading, whichever of its homework jobs gets there first. A
 * flow can ask twice: its job fails for good (HOMEWORK_FAILED, e.g. a worker died on it twice),
 * the visitor chooses again (a second job), and the coach's retry then runs the first. Free
 * resources are not sent beside any homework email; the paid programme is not sent twice, but is
 * sent after free resources. A retake (a later GRADED) asks afresh.
 *
 * Checked and written with the flow's row locked, so two such jobs take turns. An email that
 * failed is tried again rather than written twice: this job's own goes back to pending, or the
 * failed one of an earlier job of the flow is taken over (its content and job become this one's),
 * so the later job finds it pending and waits for it.
 */
async function recordUnlessSent(
  pool: pg.Pool,
  flowId: string,
  jobId: string,
  draft: EmailDraft,
): Promise<{ emailId: string } | { sentBefore: SentBefore }> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT 1 FROM flows WHERE id = $1 FOR UPDATE', [flowId]);
    const others = await client.query<{ emailId: string; status: SentBefore['status'] | 'failed'; kind: string }>(
      `SELECT e.id AS "emailId", e.status, e.kind
       FROM jobs me, email_outbox e JOIN jobs j ON j.id = e.job_id
       WHERE me.id = $2 AND j.flow_id = $1 AND j.queue = 'homework' AND j.id <> me.id
         AND (e.kind = 'homework' OR $3 = 'free_resources')
         AND NOT EXISTS (
           SELECT 1 FROM flow_events g
           WHERE g.flow_id = $1 AND g.type = 'GRADED'
             AND g.created_at > least(j.created_at, me.created_at) AND g.created_at < greatest(j.created_at, me.created_at)
         )
       ORDER BY e.status = 'failed', e.status = 'pending', e.created_at`,
      [flowId, jobId, draft.kind],
    );
    const standing = others.rows.find((row) => row.status !== 'failed');
    if (standing) return { sentBefore: { emailId: standing.emailId, status: standing.status as SentBefore['status'] } };
    const own = await client.query<{ id: string }>('SELECT id FROM email_outbox WHERE job_id = $1', [jobId]);
    const failed = others.rows.find((row) => row.kind === draft.kind);
    if (!own.rows[0] && failed) {
      await takeOverFailedEmail(client, failed.emailId, jobId, draft);
      return { emailId: failed.emailId };
    }
    const emailId = await recordJobEmail(client, jobId, draft);
    await reopenFailedEmail(client, emailId);
    return { emailId };
  });
}

/**
 * send-homework: emails the lead the resources for their archetype (the full
 * four-week programme when paid, a lighter set when free) with a signed link to the PDF report
 * (drawn when first opened, decision 0040), then tells the flow HOMEWORK_SENT.
 *
 * The email is sent here rather than by a chained 'email' job: HOMEWORK_SENT then means the email
 * has actually left, which is what the flow's sending screen waits for. Retries are idempotent: the outbox row is
 * keyed by this job's row id and is never sent twice once sent, so a retry after a crash only
 * finishes what is left (sending, or telling the flow).
 */
export const homeworkProcessor: QueueProcessor = {
  process: async (job, { pool, config, engine }) => {
    const parsed = payloadSchema.safeParse(job.data.payload);
    if (!parsed.success) throw new UnrecoverableError(`Unusable homework payload: ${parsed.error.message}`);
    const { flowId, request } = parsed.data;
    const result = request.diagnosticData;
    const lead = await recipientOf(pool, request.leadId);

    const diagnosticId = await diagnosticOfGradedResult(pool, flowId, result);
    const link = diagnosticId ? await reportLink(pool, config.publicUrl, diagnosticId) : null;
    const recorded = await recordUnlessSent(pool, flowId, job.data.jobRowId, {
      kind: request.source === 'paid_homework' ? 'homework' : 'free_resources',
      to: lead.email,
      replyTo: await coachAddress(pool, config),
      leadId: request.leadId,
      ...homeworkEmail({
        name: lead.name,
        archetype: result.archetype,
        source: request.source,
        resources: resourcesFor(result.archetype, request.source),
        reportLink: link,
        site: await readSiteSettings(pool),
      }),
    });
    if ('sentBefore' in recorded) {
      // sent: the flow hears it (if it still waits); pending: the job sending it tells the flow
      const { emailId, status } = recorded.sentBefore;
      const flow = status === 'pending' ? null : await engine.applyIfAllowed(flowId, { type: 'HOMEWORK_SENT' }, 'worker');
      return { skipped: 'the flow already has this homework', emailId, status, flowState: flow?.state ?? null };
    }
    // an email skipped over the per-recipient limit is settled too: the screen is not told (decision 0045)
    const delivery = await deliverEmail(pool, smtpSender(config), recorded.emailId);
    const flow = await engine.applyIfAllowed(flowId, { type: 'HOMEWORK_SENT' }, 'worker');
    return { ...delivery, flowState: flow?.state ?? null };
  },
  // If the email did go out and only telling the flow kept failing, the flow still hears the truth.
  onExhausted: async (job, { pool, engine }, error) => {
    const { flowId } = flowIdSchema.parse(job.data.payload);
    const email = await pool.query<{ id: string; status: string }>('SELECT id, status FROM email_outbox WHERE job_id = $1', [
      job.data.jobRowId,
    ]);
    const row = email.rows[0];
    // settled: sent, recorded, or skipped over the per-recipient limit (the flow goes on as if sent)
    const delivered = row?.status === 'sent' || row?.status === 'recorded' || row?.status === 'skipped';
    if (row && !delivered) await markEmailFailed(pool, row.id, error);
    await engine.applyIfAllowed(flowId, { type: delivered ? 'HOMEWORK_SENT' : 'HOMEWORK_FAILED' }, 'worker');
  },
};
