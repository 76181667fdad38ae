import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '#machines/protocol/admin/common.js';
import {
  leadDeletedSchema,
  leadDetailSchema,
  leadFiltersSchema,
  leadListQuerySchema,
  leadPageSchema,
} from '#machines/protocol/admin/leads.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { deleteLead, leadDetail, leadsCsv, listLeads } from '../leads-queries.js';
import { guarded, guardedWithInput, notFound } from './responses.js';

/** The admin's leads: the paginated table, its CSV export, a lead's page and the data-protection delete. */
export function adminLeadRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/leads',
    {
      schema: {
        tags: ['admin'],
        summary: 'The lead table: a page of leads, searched by name or email, filtered by source, tier, tag and created date, sorted',
        querystring: leadListQuerySchema,
        response: { 200: leadPageSchema, ...guarded, 400: errorBodySchema },
      },
    },
    (request) => listLeads(deps.pool, request.query),
  );

  api.get(
    '/api/admin/leads.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'The whole filtered lead set as CSV, streamed (formula cells neutralised), same filters and order as the table',
        querystring: leadFiltersSchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...guarded, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const csv = Readable.from(leadsCsv(deps.pool, request.query));
      const day = new Date().toISOString().slice(0, 10);
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="leads-${day}.csv"`)
          // the schema's string, sent as it is read: Fastify pipes a stream and never serialises it
          .send(csv as unknown as string)
      );
    },
  );

  api.get(
    '/api/admin/leads/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          "A lead's page: profile, latest result, answers, surveys, Mirror transcript, payments, emails, jobs, notes and flows with their events",
        params: idParamsSchema,
        response: { 200: leadDetailSchema, ...guardedWithInput },
      },
    },
    async (request) => {
      const lead = await leadDetail(deps.pool, request.params.id);
      if (!lead) throw notFound('lead', request.params.id);
      return lead;
    },
  );

  api.delete(
    '/api/admin/leads/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a lead and everything about it (a data-protection request)',
        params: idParamsSchema,
        response: { 200: leadDeletedSchema, ...guardedWithInput },
      },
    },
    async (request) => {
      if (!(await deleteLead(deps.pool, request.params.id))) throw notFound('lead', request.params.id);
      return { deleted: true as const };
    },
  );
  done();
}
