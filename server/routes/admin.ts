import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fetchOverviewFunnel, funnelQuerySchema, overviewFunnelSchema } from '../admin/funnel.js';
import { addLeadNote, fetchAdminData, fetchOverview, listLeadNotes, purgeTestLeads, setContactHandled } from '../admin/queries.js';
import {
  adminContactSubmissionSchema,
  adminDataSchema,
  adminOverviewSchema,
  contactHandledBodySchema,
  idParamsSchema,
  leadNoteBodySchema,
  leadNoteSchema,
  purgedTestLeadsSchema,
} from '../admin/schemas.js';
import { requireAdmin } from '../auth/guard.js';
import { errorBodySchema } from '../auth/schemas.js';
import type { RouteDeps } from './deps.js';

/** Every admin route can answer these besides its own. */
const guarded = { 401: errorBodySchema, 403: errorBodySchema };
const guardedWithInput = { ...guarded, 400: errorBodySchema, 404: errorBodySchema };

function notFound(reply: FastifyReply, what: string, id: string) {
  return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `No ${what} with id ${id}` });
}

/**
 * The admin API: everything under /api/admin plus the named admin-fetch-data function.
 * The session and CSRF check is a hook on this whole plugin, so no route in it can skip it.
 */
export function adminRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // onRequest, before the body is parsed: an anonymous caller learns nothing, not even a schema
  app.addHook('onRequest', requireAdmin(deps.pool));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const dataRoute = {
    schema: {
      tags: ['admin'],
      summary: 'The admin data bundle: leads, diagnostic results, mirror sessions, survey responses, contact submissions',
      response: { 200: adminDataSchema, ...guarded },
    },
  };
  api.post('/api/functions/admin-fetch-data', dataRoute, () => fetchAdminData(deps.pool));
  api.get('/api/admin/data', dataRoute, () => fetchAdminData(deps.pool));

  api.get(
    '/api/admin/overview',
    {
      schema: {
        tags: ['admin'],
        summary: 'Overview counters, the latest 5 leads and the latest 3 contact messages',
        response: { 200: adminOverviewSchema, ...guarded },
      },
    },
    () => fetchOverview(deps.pool),
  );

  api.get(
    '/api/admin/overview/funnel',
    {
      schema: {
        tags: ['admin'],
        summary: "The overview's funnel (visits to deposits) and new leads per day for a period, in the admin's time zone",
        querystring: funnelQuerySchema,
        response: { 200: overviewFunnelSchema, ...guarded, 400: errorBodySchema },
      },
    },
    (request) => fetchOverviewFunnel(deps.pool, request.query),
  );

  api.get(
    '/api/admin/leads/:id/notes',
    {
      schema: {
        tags: ['admin'],
        summary: "A lead's notes, newest first",
        params: idParamsSchema,
        response: { 200: leadNoteSchema.array(), ...guardedWithInput },
      },
    },
    async (request, reply) => (await listLeadNotes(deps.pool, request.params.id)) ?? notFound(reply, 'lead', request.params.id),
  );

  api.post(
    '/api/admin/leads/:id/notes',
    {
      schema: {
        tags: ['admin'],
        summary: 'add-lead-note: add a note to a lead, written by the signed-in admin',
        params: idParamsSchema,
        body: leadNoteBodySchema,
        response: { 201: leadNoteSchema, ...guardedWithInput },
      },
    },
    async (request, reply) => {
      const note = await addLeadNote(deps.pool, request.params.id, request.admin!.id, request.body.body);
      return note ? reply.status(201).send(note) : notFound(reply, 'lead', request.params.id);
    },
  );

  api.delete(
    '/api/admin/leads/test-leads',
    {
      schema: {
        tags: ['admin'],
        summary: 'Testing-mode clean-up: delete test-tagged leads created in the last 7 days',
        response: { 200: purgedTestLeadsSchema, ...guarded },
      },
    },
    async () => ({ deleted: await purgeTestLeads(deps.pool) }),
  );

  api.post(
    '/api/admin/contact/:id/handled',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a contact message handled or not',
        params: idParamsSchema,
        body: contactHandledBodySchema,
        response: { 200: adminContactSubmissionSchema, ...guardedWithInput },
      },
    },
    async (request, reply) =>
      (await setContactHandled(deps.pool, request.params.id, request.body.handled)) ??
      notFound(reply, 'contact message', request.params.id),
  );
  done();
}
