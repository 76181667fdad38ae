import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import { z } from 'zod';
import { flowResultSchema, homeworkSourceSchema } from '#machines/protocol/assessment-flow.js';
import { coachAddress } from '#core/email/coach.js';
import { deliverEmail, markEmailFailed, recordJobEmail } from '#core/email/outbox.js';
import { resourcesFor } from '#core/email/resources.js';
import { homeworkEmail } from '#core/email/templates.js';
import { smtpSender, type EmailAttachment } from '#core/email/transport.js';
import { buildReportPdf, reportOf } from '#core/reports/report-pdf.js';
import { readSiteSettings } from '#core/site/settings.js';
import type { QueueProcessor } from './index.js';

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

/**
 * send-homework: emails the lead the resources for their archetype (the full
 * four-week programme when paid, a lighter set when free) with the PDF report attached, then tells
 * the flow HOMEWORK_SENT.
 *
 * The email is sent here rather than by a chained 'email' job: HOMEWORK_SENT then means the email
 * has actually left, which is what the flow's sending screen waits for, and the PDF is rebuilt
 * from this job's payload instead of being stored. Retries are idempotent: the outbox row is
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

    const pdf = await buildReportPdf(reportOf(result), { name: lead.name });
    const attachments: EmailAttachment[] = [{ filename: 'leadership-report.pdf', contentType: 'application/pdf', content: pdf }];
    const emailId = await recordJobEmail(
      pool,
      job.data.jobRowId,
      {
        kind: request.source === 'paid_homework' ? 'homework' : 'free_resources',
        to: lead.email,
        replyTo: await coachAddress(pool, config),
        leadId: request.leadId,
        ...homeworkEmail({
          name: lead.name,
          archetype: result.archetype,
          source: request.source,
          resources: resourcesFor(result.archetype, request.source),
          site: await readSiteSettings(pool),
        }),
      },
      attachments,
    );
    const delivery = await deliverEmail(pool, smtpSender(config), emailId, attachments);
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
    const delivered = row?.status === 'sent' || row?.status === 'recorded';
    if (row && !delivered) await markEmailFailed(pool, row.id, error);
    await engine.applyIfAllowed(flowId, { type: delivered ? 'HOMEWORK_SENT' : 'HOMEWORK_FAILED' }, 'worker');
  },
};
