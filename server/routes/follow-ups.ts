import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { flowSnapshotResponseSchema } from '#machines/protocol/api.js';
import { flowModeSchema } from '#machines/protocol/common.js';
import { unsubscribe } from '#core/email/unsubscribe.js';
import { bindResumedFlow } from '#core/flows/flow-store.js';
import { checkResumeToken, resumableFlowExists } from '#core/flows/resume-link.js';
import { HttpError } from '#core/http-error.js';
import { markFlowLeadEmailProven } from '#core/leads/lead-service.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';
import { acceptFormBodies } from '../plugins/form-bodies.js';

const token = z.string().min(1).max(200);

/** The resumed flow, as the flows routes answer it, and which modal it opens in. */
const resumedFlowSchema = flowSnapshotResponseSchema.extend({ mode: flowModeSchema });

/**
 * Unsubscribes are posted by mail providers, many people's from one of their addresses, so the
 * limit is wide; the signed token, not the limit, is what stops a forged one.
 */
const UNSUBSCRIBE_LIMIT = { max: 300, timeWindow: '10 minutes' };

/** RFC 8058's one-click body, or the unsubscribe page's confirmation. */
const unsubscribeBodySchema = z.union([z.object({ 'List-Unsubscribe': z.literal('One-Click') }), z.object({ from: z.literal('page') })]);

const resumeRefused = () => new HttpError(404, 'No assessment for that link.', { fields: { token: 'is not a valid resume link' } });

/**
 * The follow-up emails' links: POST /api/flows/resume (the abandoned-assessment reminder's link
 * back in, which binds the flow to this browser: docs/decisions/0024-resume-links.md) and
 * /api/email/unsubscribe (the reminders' one-click unsubscribe, RFC 8058, and the page's button).
 * The signed token is the credential of both; no cookie is needed to unsubscribe.
 */
export function followUpRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  acceptFormBodies(app);

  api.post(
    '/api/flows/resume',
    {
      config: { rateLimit: rateLimits.tokens },
      schema: { body: z.object({ token }), response: { 200: resumedFlowSchema } },
    },
    async (request, reply) => {
      const check = await checkResumeToken(deps.pool, request.body.token);
      if (check.status === 'invalid') throw resumeRefused();
      if (check.status === 'expired') {
        const day = check.expiredAt.toISOString().slice(0, 10);
        throw new HttpError(400, `This link expired on ${day}: resume links work for a week. You can start the assessment again.`, {
          fields: { token: 'has expired' },
        });
      }
      // nothing issued to a browser for a flow that is gone (its lead was deleted)
      if (!(await resumableFlowExists(deps.pool, check.flowId))) throw resumeRefused();
      const visitorId = await deps.visitors.ensure(request, reply);
      const mode = await bindResumedFlow(deps.pool, check.flowId, visitorId);
      if (!mode) throw resumeRefused();
      // the reminder went to the lead's address: following its link proves it (decision 0044)
      await markFlowLeadEmailProven(deps.pool, check.flowId);
      return { ...(await deps.engine.get(check.flowId, { visitorId })), mode };
    },
  );

  api.post(
    '/api/email/unsubscribe',
    {
      config: { rateLimit: UNSUBSCRIBE_LIMIT },
      schema: {
        querystring: z.object({ token }),
        body: unsubscribeBodySchema,
        response: { 200: z.object({ unsubscribed: z.literal(true) }) },
      },
    },
    async (request) => {
      const how = 'from' in request.body ? 'page' : 'one_click';
      if (!(await unsubscribe(deps.pool, request.query.token, how))) {
        throw new HttpError(404, 'No subscription for that link.', { fields: { token: 'is not a valid unsubscribe link' } });
      }
      return { unsubscribed: true as const };
    },
  );

  // a mail client without one-click support opens the header's address: the page asks to confirm
  // (a GET never unsubscribes, as link scanners follow them)
  api.get('/api/email/unsubscribe', { schema: { querystring: z.object({ token }) } }, async (request, reply) =>
    reply.redirect(`/unsubscribe?token=${encodeURIComponent(request.query.token)}`, 303),
  );
  done();
}
