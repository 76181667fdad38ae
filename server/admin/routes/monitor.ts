import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { monitorSnapshotSchema } from '#machines/protocol/monitor.js';
import { monitorSnapshot } from '#core/slack/monitor-store.js';
import { refuseForeignOrigin } from '../../auth/guard.js';
import type { RouteDeps } from '../../routes/deps.js';
import { guarded } from './responses.js';

/** GET /api/admin/monitor: the team-chat monitor's opening snapshot; its socket is server/sockets/monitor.ts. */
export function monitorRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool'>, done: () => void): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/monitor',
    {
      // like its socket, only for the site's own pages
      onRequest: refuseForeignOrigin,
      schema: {
        tags: ['admin'],
        summary: 'The team-chat monitor on opening: counters, the latest 50 bot messages and the latest 20 completed assessments',
        response: { 200: monitorSnapshotSchema, ...guarded },
      },
    },
    () => monitorSnapshot(deps.pool),
  );
  done();
}
