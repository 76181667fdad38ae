import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '#core/http-error.js';
import { buildReportPdf } from '#core/reports/report-pdf.js';
import { loadReport, reportPathFor } from '#core/reports/store.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/**
 * GET /api/reports/:id.pdf, where id is the diagnostic id (the one diagnostic-start returns and the
 * browser keeps): one stable URL per diagnostic, built on request from the stored result, so a
 * re-grade shows at once and nothing is cached on disk. Only the visitor whose diagnostic it is
 * gets it; anyone else gets the same 404 as for a missing one.
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
    async (request, reply) => {
      const { id } = request.params;
      const { report, lead, date } = await loadReport(deps.pool, id, request.visitorId);
      const pdf = await buildReportPdf(report, lead, { date });
      return (
        reply
          .type('application/pdf')
          .header('content-disposition', `inline; filename="leadership-report-${id}.pdf"`)
          // personal results: not for shared caches
          .header('cache-control', 'private, no-store')
          .send(pdf)
      );
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
