import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { diagnosticOfEmailAttachment, reportPdf } from '#core/reports/store.js';
import type { RouteDeps } from '../../routes/deps.js';
import { sendPdf } from '../../routes/reports.js';
import { guardedWithInput, notFound } from './responses.js';

const pdf = { 200: z.any().describe('The PDF report'), ...guardedWithInput };

/**
 * The coach opens a lead's reports from the lead page: GET /api/admin/reports/:id.pdf is a
 * diagnostic's report (any lead's), GET /api/admin/emails/:id/attachments/:index the report an
 * email had attached, rebuilt from its source (attachments are listed, never stored). The admin
 * area's guard lets only a signed-in admin in; the public report URLs stay the visitor's own.
 */
export function adminReportRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/reports/:id.pdf',
    {
      schema: {
        tags: ['admin'],
        summary: "A diagnostic's PDF report, for the coach",
        params: z.object({ id: z.uuid() }),
        produces: ['application/pdf'],
        response: pdf,
      },
    },
    async (request, reply) => sendPdf(reply, await reportPdf(deps.pool, request.params.id, { coach: true })),
  );

  api.get(
    '/api/admin/emails/:id/attachments/:index',
    {
      schema: {
        tags: ['admin'],
        summary: "An email's attached report, rebuilt from the lead's diagnostic",
        params: z.object({ id: z.uuid(), index: z.coerce.number().int().min(0).max(20) }),
        produces: ['application/pdf'],
        response: pdf,
      },
    },
    async (request, reply) => {
      const diagnosticId = await diagnosticOfEmailAttachment(deps.pool, request.params.id, request.params.index);
      if (!diagnosticId) throw notFound('report attached to email', request.params.id);
      return sendPdf(reply, await reportPdf(deps.pool, diagnosticId, { coach: true }));
    },
  );
  done();
}
