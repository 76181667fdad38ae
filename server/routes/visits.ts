import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

const visitBodySchema = z.object({
  /** Random, made up by the browser for this tab session (web/src/lib/visits.ts). */
  visitorId: z.uuid('A visitor id is a random UUID.'),
  path: z
    .string()
    .max(300, 'A path is at most 300 characters.')
    .regex(/^\/[^?#]*$/, 'A path starts with / and has no query or fragment.'),
});

/**
 * POST /api/visits: counts a tab session on the public site for the overview's funnel. Stores the
 * random session id, the landing path and the time, nothing about the visitor (no IP address, no
 * user agent): see the site_visits migration. A repeat of the same id on the same UTC day is a
 * no-op, so a retried beacon counts once.
 */
export function visitRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/visits',
    {
      config: { rateLimit: rateLimits.visits },
      schema: {
        summary: 'Count a visit: one per browser tab session per day, with no personal data',
        tags: ['site'],
        body: visitBodySchema,
        response: { 204: z.null().describe('Counted (or already counted today)') },
      },
    },
    async (request, reply) => {
      await deps.pool.query(
        "INSERT INTO site_visits (visitor_id, day, path) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2) ON CONFLICT DO NOTHING",
        [request.body.visitorId, request.body.path],
      );
      return reply.status(204).send(null);
    },
  );
  done();
}
