import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#machines/protocol/admin/common.js';
import { attentionQuerySchema, needsAttentionSchema } from '#machines/protocol/admin/attention.js';
import { overviewDropoffSchema } from '#machines/protocol/admin/dropoff.js';
import { overviewFunnelSchema } from '#machines/protocol/admin/funnel.js';
import { leadScopeQuerySchema } from '#machines/protocol/admin/scope.js';
import { leadNoteBodySchema, leadNoteSchema } from '#machines/protocol/admin/leads.js';
import {
  adminContactSubmissionSchema,
  adminDataSchema,
  adminOverviewSchema,
  contactHandledBodySchema,
  purgedTestLeadsSchema,
} from '#machines/protocol/admin/overview.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { fetchNeedsAttention } from '../attention.js';
import { fetchOverviewDropoff } from '../dropoff.js';
import { fetchOverviewFunnel } from '../funnel.js';
import { setContactHandled } from '#core/contact/submissions.js';
import { purgeTestLeads } from '#core/leads/lead-service.js';
import { addLeadNote, fetchAdminData, fetchOverview, listLeadNotes } from '../queries.js';
import { guarded, guardedWithInput, notFound } from './responses.js';

/**
 * The admin data, the overview and its funnel, lead notes, contact messages handled, the test-lead
 * purge, and the named admin-fetch-data function.
 */
export function adminDataRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

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
        summary: 'Overview counters, the latest 5 leads and the latest 3 contact messages, for a period (test leads when included)',
        querystring: leadScopeQuerySchema,
        response: { 200: adminOverviewSchema, ...guarded, 400: errorBodySchema },
      },
    },
    (request) => fetchOverview(deps.pool, request.query),
  );

  api.get(
    '/api/admin/overview/funnel',
    {
      schema: {
        tags: ['admin'],
        summary: "The overview's funnel (visits to deposits) and new leads per day for a period, in the admin's time zone",
        querystring: leadScopeQuerySchema,
        response: { 200: overviewFunnelSchema, ...guarded, 400: errorBodySchema },
      },
    },
    (request) => fetchOverviewFunnel(deps.pool, request.query),
  );

  api.get(
    '/api/admin/overview/dropoff',
    {
      schema: {
        tags: ['admin'],
        summary: 'Drop-off per screen: the flows started in a period that reached each screen and those that stopped there',
        querystring: leadScopeQuerySchema,
        response: { 200: overviewDropoffSchema, ...guarded, 400: errorBodySchema },
      },
    },
    (request) => fetchOverviewDropoff(deps.pool, request.query),
  );

  api.get(
    '/api/admin/overview/attention',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Needs attention: paid deposits with no session booked after the reminder, sessions the coach cancelled, refunded deposits still booked',
        querystring: attentionQuerySchema,
        response: { 200: needsAttentionSchema, ...guarded, 400: errorBodySchema },
      },
    },
    (request) => fetchNeedsAttention(deps.pool, request.query.includeTest),
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
    async (request) => {
      const notes = await listLeadNotes(deps.pool, request.params.id);
      if (!notes) throw notFound('lead', request.params.id);
      return notes;
    },
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
      if (!note) throw notFound('lead', request.params.id);
      return reply.status(201).send(note);
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
    async (request) => {
      const contact = await setContactHandled(deps.pool, request.params.id, request.body.handled);
      if (!contact) throw notFound('contact message', request.params.id);
      return contact;
    },
  );
  done();
}
