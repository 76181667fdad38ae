import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { redactUrl } from '#core/log-serializers.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** The longest path the 404 page reports; longer ones are refused rather than logged. */
const MAX_REPORTED_PATH = 2000;

const notFoundBodySchema = z.object({
  path: z.string().min(1).max(MAX_REPORTED_PATH),
});

/** Writes the path a visitor could not find to the server log, as a warning. */
export function logMissingPage(request: FastifyRequest, path: string): void {
  request.log.warn(
    // both may carry a lead's token or an email in their query
    {
      missingPath: redactUrl(path),
      referer: request.headers.referer && redactUrl(request.headers.referer),
      userAgent: request.headers['user-agent'],
    },
    'page not found',
  );
}

/**
 * POST /api/client-log/not-found: the 404 page reports the path a visitor could not find when
 * reached by a link inside the site (the server logs the ones it answers with 404 itself).: the 404 page reports the path a visitor could not find.
 * Written to the server log as a warning; rate-limited
 * per IP like the contact form so the log cannot be flooded from a browser.
 */
export function clientLogRoutes(app: FastifyInstance, _deps: RouteDeps, done: () => void): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/client-log/not-found',
    {
      config: { rateLimit: rateLimits.contact },
      schema: {
        summary: 'Log a path the site could not find (sent by the 404 page)',
        tags: ['site'],
        body: notFoundBodySchema,
        response: { 204: z.null().describe('Logged') },
      },
    },
    async (request, reply) => {
      logMissingPage(request, request.body.path);
      return reply.status(204).send(null);
    },
  );
  done();
}
