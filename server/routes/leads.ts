import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tokenCheckSchema } from '../../machines/protocol/assessment-flow.js';
import { emailSchema, knownSessionSchema, type LeadSource } from '../../machines/protocol/common.js';
import { assessmentResponse, leadAssessmentSchema, queueLeadAssessment, waitForJob } from '../leads/grading-requests.js';
import { createOrUpdateLead } from '../leads/lead-service.js';
import { initializeFromToken } from '../leads/token-session.js';
import { checkToken } from '../leads/tokens.js';
import { HttpError } from '../http-error.js';
import type { RouteDeps } from './deps.js';

const tokenBody = z.object({ token: z.string().min(1).max(200) });
const leadBody = z.object({
  email: emailSchema,
  name: z.string().trim().max(200).optional(),
  source: z.string().trim().regex(/^[a-z0-9_-]{1,40}$/, 'expected lowercase letters, digits, _ or -').optional(),
  testing: z.boolean().default(false),
});
const leadResponse = z.object({
  leadId: z.uuid(),
  email: z.string(),
  name: z.string(),
  source: z.string(),
  tags: z.array(z.string()),
  created: z.boolean(),
});
const leadParams = z.object({ id: z.uuid() });

/**
 * Testing mode as the server can trust it: a request from this machine outside production. The
 * browser's testing flag is the visitor's claim, so it never unlocks a delete on its own.
 */
function isLocalTesting(request: FastifyRequest, production: boolean): boolean {
  return !production && ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.ip);
}

/**
 * The lead service of spec section 7 as REST: initializeFromToken, check-token, getSession,
 * createOrUpdateLead, submitQualificationData and the test-lead purge. verifyPayment lives with
 * payments, add-lead-note with the admin API.
 */
export async function leadRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['leads'];

  api.post(
    '/api/leads/check-token',
    { schema: { summary: 'check-token: valid, invalid or expired; a single-use token is spent', tags, body: tokenBody, response: { 200: tokenCheckSchema } } },
    async (request) => checkToken(deps.pool, request.body.token),
  );

  api.post(
    '/api/leads/init-from-token',
    {
      schema: {
        summary: 'initializeFromToken: check the token, find or create its lead, record the website visit',
        tags,
        body: tokenBody,
        response: { 200: z.object({ check: tokenCheckSchema, session: knownSessionSchema.nullable() }) },
      },
    },
    async (request) => initializeFromToken(deps.pool, request.body.token),
  );

  api.post(
    '/api/leads',
    { schema: { summary: 'createOrUpdateLead: an address already known (any case) returns its lead, except in testing mode', tags, body: leadBody, response: { 200: leadResponse, 201: leadResponse } } },
    async (request, reply) => {
      const { testing, ...lead } = request.body;
      const saved = await createOrUpdateLead(deps.pool, { ...lead, testingMode: testing });
      return reply.status(saved.created ? 201 : 200).send(saved);
    },
  );

  api.get(
    '/api/leads/:id/session',
    { schema: { summary: 'getSession: the short lead session of a lead id', tags, params: leadParams, response: { 200: knownSessionSchema } } },
    async (request) => {
      const found = await deps.pool.query<{ email: string; name: string; source: string }>('SELECT email, name, source FROM leads WHERE lead_id = $1', [request.params.id]);
      const lead = found.rows[0];
      if (!lead) throw new HttpError(404, 'No lead with that id.');
      const source: LeadSource = lead.source === 'community' || lead.source === 'token' ? lead.source : 'direct';
      return { leadId: request.params.id, email: lead.email, name: lead.name, source, leadToken: null };
    },
  );

  api.post(
    '/api/leads/:id/qualification',
    {
      schema: {
        summary: 'submitQualificationData: grade diagnostic answers, survey and Mirror chat for a lead (waits up to 30 s)',
        tags,
        params: leadParams,
        body: leadAssessmentSchema.pick({ assessment: true, survey: true, mirrorChat: true }),
      },
    },
    async (request, reply) => {
      const jobId = await queueLeadAssessment(deps.pool, { ...request.body, leadId: request.params.id });
      const outcome = await waitForJob(deps.pool, jobId, 30_000);
      const result = outcome.status === 'completed' ? await assessmentResponse(deps.pool, jobId) : null;
      return result ? reply.send({ jobId, ...result }) : reply.status(202).send({ jobId, status: outcome.status });
    },
  );

  api.delete(
    '/api/leads/test-leads',
    { schema: { summary: "Testing mode's purge of test-tagged leads of the last 7 days (admins use DELETE /api/admin/leads/test-leads)", tags, response: { 200: z.object({ deleted: z.number().int() }) } } },
    async (request) => {
      if (!isLocalTesting(request, deps.config.NODE_ENV === 'production')) {
        throw new HttpError(403, 'Test leads may be deleted here only in testing mode on this machine; admins use the admin area.');
      }
      const deleted = await deps.pool.query("DELETE FROM leads WHERE 'test' = ANY (tags) AND created_at > now() - interval '7 days'");
      return { deleted: deleted.rowCount ?? 0 };
    },
  );
}
