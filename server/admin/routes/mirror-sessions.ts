import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { mirrorListQuerySchema, mirrorPageSchema } from '#machines/protocol/admin/mirror-sessions.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { listMirrorSessions } from '../mirror-sessions.js';
import { guarded } from './responses.js';

/** GET /api/admin/mirror-sessions: the Mirror conversations the Overview counts, each readable with its lead. */
export function adminMirrorSessionRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/mirror-sessions',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mirror sessions, newest first (all, or only saved ones), each with its lead and conversation',
        querystring: mirrorListQuerySchema,
        response: { 200: mirrorPageSchema, 400: errorBodySchema, ...guarded },
      },
    },
    (request) => listMirrorSessions(deps.pool, request.query),
  );
  done();
}
