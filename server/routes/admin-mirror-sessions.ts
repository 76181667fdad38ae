import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listMirrorSessions, mirrorListQuerySchema, mirrorPageSchema } from '../admin/mirror-sessions.js';
import { requireAdmin } from '../auth/guard.js';
import { errorBodySchema } from '../auth/schemas.js';
import type { RouteDeps } from './deps.js';

/** GET /api/admin/mirror-sessions: the Mirror conversations the Overview counts, each readable with its lead. */
export function adminMirrorSessionRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  app.addHook('onRequest', requireAdmin(deps.pool));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/mirror-sessions',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mirror sessions, newest first (all, or only saved ones), each with its lead and conversation',
        querystring: mirrorListQuerySchema,
        response: { 200: mirrorPageSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    (request) => listMirrorSessions(deps.pool, request.query),
  );
  done();
}
