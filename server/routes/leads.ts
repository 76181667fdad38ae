import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tokenCheckSchema } from '#machines/protocol/assessment-flow.js';
import { knownSessionSchema } from '#machines/protocol/common.js';
import {
  ADAPTER_WAIT_MS,
  captureBodySchema,
  captureLead,
  captureResponseSchema,
  leadAssessmentSchema,
  leadSessionFor,
  submitAssessment,
} from '../adapters/assessment.js';
import { signedInAdmin } from '../auth/guard.js';
import { confirmAddress } from '#core/leads/confirm-address.js';
import { checkConfirmToken } from '#core/leads/lead-attempts.js';
import { purgeTestLeads } from '#core/leads/lead-service.js';
import { flowSnapshotResponseSchema } from '#machines/protocol/api.js';
import { flowModeSchema } from '#machines/protocol/common.js';
import { initializeFromToken } from '#core/leads/token-session.js';
import { HttpError } from '#core/http-error.js';
import { captureGate } from '../plugins/capture-limit.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';
import { startVisitorFlow } from '../visitors/start-flow.js';

const tokenBody = z.object({ token: z.string().min(1).max(200) });
const leadParams = z.object({ id: z.uuid() });
const confirmRefused = () =>
  new HttpError(404, 'No unconfirmed assessment for that link: it was used already, or is not whole.', {
    fields: { token: 'is not a valid confirmation link' },
  });

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Who may purge test leads: a signed-in admin (session and CSRF token), or, outside production,
 * a request made on this machine itself: from a loopback address and carrying no proxy's
 * forwarding header, since a reverse proxy on the same host makes every visitor look local. The
 * browser's testing flag is the visitor's claim, so it never unlocks a delete on its own.
 */
async function mayPurgeTestLeads(request: FastifyRequest, deps: Pick<RouteDeps, 'pool' | 'config'>): Promise<boolean> {
  const admin = await signedInAdmin(deps.pool, request).catch((error: unknown) => {
    if (error instanceof HttpError) return null;
    throw error;
  });
  if (admin) return true;
  if (deps.config.NODE_ENV === 'production') return false;
  const forwarded = ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((header) => request.headers[header] !== undefined);
  return !forwarded && LOOPBACK.has(request.socket.remoteAddress ?? '');
}

/**
 * initializeFromToken / check-token: the token is the credential. A valid one (spent, when it is
 * single-use) binds its lead to this visitor by starting their assessment flow with it, so the
 * spent link is not lost; the answer says which flow.
 */
async function redeemToken(deps: RouteDeps, request: FastifyRequest, reply: FastifyReply, token: string) {
  const initialized = await initializeFromToken(deps.pool, token);
  if (initialized.check.status !== 'valid') return { ...initialized, flowId: null };
  const flow = await startVisitorFlow(
    deps,
    request,
    reply,
    { machine: 'assessmentFlow', mode: 'assessment', token, testing: false, knownSession: null },
    initialized.check,
  );
  return { ...initialized, flowId: flow.flowId };
}

/**
 * The lead service as REST adapters (server/adapters/assessment.ts):
 * initializeFromToken, check-token, getSession, createOrUpdateLead, submitQualificationData and
 * the test-lead purge. Each acts only through the caller's own flows. verifyPayment lives with
 * payments, add-lead-note with the admin API.
 */
export function leadRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['leads'];

  api.post(
    '/api/leads/check-token',
    {
      config: { rateLimit: rateLimits.tokens },
      schema: {
        summary: "check-token: valid, invalid or expired; a valid token (spent when single-use) starts this visitor's assessment with it",
        tags,
        body: tokenBody,
        response: { 200: z.intersection(tokenCheckSchema, z.object({ flowId: z.uuid().nullable() })) },
      },
    },
    async (request, reply) => {
      const redeemed = await redeemToken(deps, request, reply, request.body.token);
      return { ...redeemed.check, flowId: redeemed.flowId };
    },
  );

  api.post(
    '/api/leads/init-from-token',
    {
      config: { rateLimit: rateLimits.tokens },
      schema: {
        summary: "initializeFromToken: check the token, find or create its lead, record the website visit, start this visitor's assessment",
        tags,
        body: tokenBody,
        response: { 200: z.object({ check: tokenCheckSchema, session: knownSessionSchema.nullable(), flowId: z.uuid().nullable() }) },
      },
    },
    async (request, reply) => redeemToken(deps, request, reply, request.body.token),
  );

  api.post(
    '/api/leads',
    {
      config: { rateLimit: rateLimits.leads },
      // every request here captures: it counts against the client's one capture limit (decision 0045)
      preHandler: captureGate(deps),
      schema: {
        summary:
          "createOrUpdateLead: the capture step of this visitor's assessment; a known address (any case) reuses its lead, except in testing mode",
        tags,
        body: captureBodySchema,
        response: { 200: captureResponseSchema },
      },
    },
    async (request, reply) => captureLead(deps, request, reply, request.body),
  );

  api.post(
    '/api/leads/confirm',
    {
      config: { rateLimit: rateLimits.tokens },
      schema: {
        summary:
          'The confirmation link of an unconfirmed attempt (decision 0044): proves the address, gives the attempt to its lead and opens it in this browser',
        tags,
        body: tokenBody,
        response: { 200: flowSnapshotResponseSchema.extend({ mode: flowModeSchema }) },
      },
    },
    async (request, reply) => {
      const check = await checkConfirmToken(deps.pool, request.body.token);
      if (check.status === 'invalid') throw confirmRefused();
      if (check.status === 'expired') {
        const day = check.expiredAt.toISOString().slice(0, 10);
        throw new HttpError(400, `This link expired on ${day}: confirmation links work for a week. You can take the assessment again.`, {
          fields: { token: 'has expired' },
        });
      }
      const visitorId = await deps.visitors.ensure(request, reply);
      const confirmed = await confirmAddress(deps.engine, check.attemptId, visitorId);
      if (!confirmed) throw confirmRefused();
      return { ...(await deps.engine.get(confirmed.flowId, { visitorId })), mode: confirmed.mode };
    },
  );

  api.get(
    '/api/leads/:id/session',
    {
      schema: {
        summary: "getSession: the lead session of this visitor's own assessment bound to that lead",
        tags,
        params: leadParams,
        response: { 200: knownSessionSchema },
      },
    },
    async (request) => leadSessionFor(deps, request.visitorId, request.params.id),
  );

  api.post(
    '/api/leads/:id/qualification',
    {
      config: { rateLimit: rateLimits.flowEvents },
      schema: {
        summary: "submitQualificationData: the survey of this visitor's own assessment, graded by its grading job (waits up to 30 s)",
        tags,
        params: leadParams,
        body: leadAssessmentSchema.pick({ assessment: true, survey: true, mirrorChat: true }),
      },
    },
    async (request, reply) => {
      const { flow, answer } = await submitAssessment(deps, request.visitorId, request.params.id, request.body.survey, ADAPTER_WAIT_MS);
      return answer ? reply.send(answer) : reply.status(202).send({ flowId: flow.flowId, status: 'grading' });
    },
  );

  api.delete(
    '/api/leads/test-leads',
    {
      schema: {
        summary:
          "Testing mode's purge of test-tagged leads of the last 7 days: a signed-in admin (with the CSRF header), or a direct request on this machine outside production",
        tags,
        response: { 200: z.object({ deleted: z.number().int() }) },
      },
    },
    async (request) => {
      if (!(await mayPurgeTestLeads(request, deps))) {
        throw new HttpError(403, 'Sign in as an admin to delete test leads (or use testing mode on this machine outside production).');
      }
      return { deleted: await purgeTestLeads(deps.pool) };
    },
  );
  done();
}
