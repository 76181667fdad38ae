import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '#core/http-error.js';
import { checkReportToken, REPORT_LINK_DAYS } from '#core/reports/report-link.js';
import { diagnosticOfFlow, reportPathFor, reportPdf, type ReportPdf } from '#core/reports/store.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** The PDF, shown in the browser under a name that says what it is and when (the coach's lead page serves it too). */
export function sendPdf(reply: FastifyReply, { pdf, date }: ReportPdf) {
  return (
    reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="leadership-report-${date.toISOString().slice(0, 10)}.pdf"`)
      // personal results: not for shared caches
      .header('cache-control', 'private, no-store')
      .send(pdf)
  );
}

/** Why a report link opens nothing: a title, what to do, and the token's fault in the error shape. */
interface Refusal {
  title: string;
  detail: string;
  field: string;
}

const UNKNOWN_LINK: Refusal = {
  title: 'No report for that link',
  detail: 'Check that the whole link from the email was opened.',
  field: 'is not a valid report link',
};

/**
 * A refused report link, always a 404: a short page for a browser (the link is opened from an
 * email), the error shape otherwise. Its words are fixed: nothing from the request is echoed.
 */
function refuseLink(request: FastifyRequest, reply: FastifyReply, refusal: Refusal, siteUrl: string) {
  const { title, detail, field } = refusal;
  if (!/\btext\/html\b/.test(request.headers.accept ?? '')) throw new HttpError(404, `${title}. ${detail}`, { fields: { token: field } });
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${detail}</p><p><a href="${siteUrl}/">Continue on the site</a></p></main></body></html>
`;
  return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
}

/**
 * GET /api/reports/:id.pdf, where id is the diagnostic id (the one diagnostic-start returns and the
 * browser keeps): one stable URL per diagnostic, for the visitor whose diagnostic it is; anyone else
 * gets the same 404 as for a missing one.
 * GET /api/reports/link?token= is the same report for whoever holds the results or homework email's
 * signed, expiring link (core/reports/report-link.ts); a changed, unknown or expired token is a 404.
 * Both serve the PDF drawn at the first open and stored, drawn again after a re-grade (decision 0040).
 * GET /api/flows/:id/report.pdf is the report of a flow's latest result, for the visitor whose flow
 * it is (the assessment modal's Download Report); a stranger gets the flows' 404.
 * POST /api/functions/report-pdf is the report-pdf helper: diagnosticId in, pdfUrl out.
 */
export function reportRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['diagnostic'];

  api.get(
    '/api/reports/:id.pdf',
    {
      config: { rateLimit: rateLimits.reports },
      schema: {
        summary: "The diagnostic's PDF report",
        tags,
        params: z.object({ id: z.uuid() }),
        produces: ['application/pdf'],
        response: { 200: z.any().describe('The PDF report') },
      },
    },
    async (request, reply) => sendPdf(reply, await reportPdf(deps.pool, request.params.id, { visitorId: request.visitorId })),
  );

  api.get(
    '/api/flows/:id/report.pdf',
    {
      config: { rateLimit: rateLimits.reports },
      schema: {
        summary: "The PDF report of the assessment flow's latest result",
        tags,
        params: z.object({ id: z.uuid() }),
        produces: ['application/pdf'],
        response: { 200: z.any().describe('The PDF report') },
      },
    },
    async (request, reply) => {
      // the visitor's own flow, or the flows' 404
      const flow = await deps.engine.get(request.params.id, { visitorId: request.visitorId });
      const diagnosticId = await diagnosticOfFlow(deps.pool, flow.flowId);
      if (!diagnosticId) throw new HttpError(404, `No report for flow ${flow.flowId} yet`);
      return sendPdf(reply, await reportPdf(deps.pool, diagnosticId, { visitorId: request.visitorId }));
    },
  );

  api.get(
    '/api/reports/link',
    {
      config: { rateLimit: rateLimits.reports },
      schema: {
        summary: "The PDF report an email's signed link opens",
        tags,
        querystring: z.object({ token: z.string().min(1).max(200) }),
        produces: ['application/pdf', 'text/html'],
        response: { 200: z.any().describe('The PDF report') },
      },
    },
    async (request, reply) => {
      const check = await checkReportToken(deps.pool, request.query.token);
      const site = deps.config.publicUrl;
      if (check.status === 'expired') {
        const day = check.expiredAt.toISOString().slice(0, 10);
        const detail = `It expired on ${day}: a report link works for ${REPORT_LINK_DAYS} days. Reply to the email it came in to ask your coach for your report.`;
        return refuseLink(request, reply, { title: 'This report link has expired', detail, field: 'has expired' }, site);
      }
      if (check.status === 'invalid') return refuseLink(request, reply, UNKNOWN_LINK, site);
      try {
        return sendPdf(reply, await reportPdf(deps.pool, check.diagnosticId, { signedLink: true }));
      } catch (error) {
        // a genuine link whose report is gone (its lead was deleted)
        if (error instanceof HttpError && error.statusCode === 404) {
          return refuseLink(request, reply, UNKNOWN_LINK, site);
        }
        throw error;
      }
    },
  );

  api.post(
    '/api/functions/report-pdf',
    {
      config: { rateLimit: rateLimits.reports },
      schema: {
        summary: "report-pdf: the URL of a completed diagnostic's PDF report",
        tags,
        body: z.object({ diagnosticId: z.uuid() }),
        response: { 200: z.object({ pdfUrl: z.url() }) },
      },
    },
    async (request) => {
      const path = await reportPathFor(deps.pool, request.body.diagnosticId, request.visitorId);
      if (!path) throw new HttpError(404, `No report for diagnostic ${request.body.diagnosticId}`);
      return { pdfUrl: `${deps.config.publicUrl}${path}` };
    },
  );
  done();
}
