import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteLead, leadDetail, leadsCsv, listLeads } from '../admin/leads-queries.js';
import { leadDeletedSchema, leadDetailSchema, leadFiltersSchema, leadListQuerySchema, leadPageSchema } from '../admin/leads-schemas.js';
import { idParamsSchema } from '../admin/schemas.js';
import { requireAdmin } from '../auth/guard.js';
import { errorBodySchema } from '../auth/schemas.js';
import type { RouteDeps } from './deps.js';

const guarded = { 401: errorBodySchema, 403: errorBodySchema };
const withInput = { ...guarded, 400: errorBodySchema, 404: errorBodySchema };

function notFound(reply: FastifyReply, id: string) {
  return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `No lead with id ${id}` });
}

/** The admin's leads: the paginated table, its CSV export, a lead's page and the data-protection delete. */
export function adminLeadRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireAdmin(deps.pool));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

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
        summary: 'The filtered lead set as CSV (formula cells neutralised), same filters and order as the table',
        querystring: leadFiltersSchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...guarded, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const csv = await leadsCsv(deps.pool, request.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="leads-${day}.csv"`)
        .send(csv);
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
        response: { 200: leadDetailSchema, ...withInput },
      },
    },
    async (request, reply) => (await leadDetail(deps.pool, request.params.id)) ?? notFound(reply, request.params.id),
  );

  api.delete(
    '/api/admin/leads/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a lead and everything about it (a data-protection request)',
        params: idParamsSchema,
        response: { 200: leadDeletedSchema, ...withInput },
      },
    },
    async (request, reply) =>
      (await deleteLead(deps.pool, request.params.id)) ? { deleted: true as const } : notFound(reply, request.params.id),
  );
  done();
}
