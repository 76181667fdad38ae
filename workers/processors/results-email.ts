import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { flowResultSchema } from '#machines/protocol/assessment-flow.js';
import { leadEmailContext } from '#core/email/lead-email-context.js';
import { resultsEmail } from '#core/email/templates.js';
import { reportLink } from '#core/reports/report-link.js';
import { reportOf } from '#core/reports/report-pdf.js';
import { diagnosticOfGradedResult } from '#core/reports/store.js';
import { sendComposedEmail } from './composed-email.js';
import type { Processor } from './processor.js';

/** The payload the flow's sendResults effect writes (core/flows/effects.ts). */
const resultsEmailPayloadSchema = z.object({
  flowId: z.uuid(),
  request: z.object({ leadId: z.uuid(), result: flowResultSchema }),
});

/**
 * The results email of a graded assessment, to the lead's stored address and name (never an
 * address typed later), with a signed link to the PDF report rather than the PDF: the report is
 * drawn when it is first opened (decision 0040). Like homework, the row is keyed by the job, so a
 * retry finishes the first attempt's email instead of writing a second one.
 */
export const sendResultsEmail: Processor = async (job, context) => {
  const parsed = resultsEmailPayloadSchema.safeParse(job.data.payload);
  if (!parsed.success) throw new UnrecoverableError(`Unusable results email payload: ${parsed.error.message}`);
  const { flowId } = parsed.data;
  const { leadId, result } = parsed.data.request;
  const { config } = context;
  return sendComposedEmail(context, job.data.jobRowId, async (db) => {
    const { lead, replyTo, site } = await leadEmailContext(db, leadId, config);
    if (!lead) return { skipped: 'the lead was deleted' };
    const report = reportOf(result);
    const diagnosticId = await diagnosticOfGradedResult(db, flowId, result);
    const link = diagnosticId ? await reportLink(db, config.publicUrl, diagnosticId) : null;
    return {
      draft: {
        kind: 'results',
        to: lead.email,
        replyTo,
        leadId,
        ...resultsEmail({ name: lead.name, report, reportLink: link, siteUrl: config.publicUrl, site }),
      },
    };
  });
};
