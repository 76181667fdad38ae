import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '#core/http-error.js';
import { refuseForeignOrigin, requireAdmin } from '../auth/guard.js';
import { sendHttpError } from '../plugins/error-handler.js';
import type { RouteDeps } from '../routes/deps.js';
import { adminLiveRoutes } from '../sockets/admin-live.js';
import { monitorSocket } from '../sockets/monitor.js';
import { adminBookingRoutes } from './routes/bookings.js';
import { bullBoardRoutes, redirectSignedOutBoardPage } from './routes/bull-board.js';
import { adminDataRoutes } from './routes/data.js';
import { adminEmailRoutes } from './routes/emails.js';
import { gradingRoutes } from './routes/grading.js';
import { adminIntegrationRoutes } from './routes/integrations.js';
import { adminJobRoutes } from './routes/jobs.js';
import { adminLeadRoutes } from './routes/leads.js';
import { adminMirrorSessionRoutes } from './routes/mirror-sessions.js';
import { monitorRoutes } from './routes/monitor.js';
import { refundRoutes } from './routes/refunds.js';
import { siteSettingsRoutes } from './routes/site-settings.js';

/** A websocket handshake is refused (403) when a page of another site opens it with the admin's cookie. */
async function refuseForeignSocket(request: FastifyRequest): Promise<void> {
  if (request.ws) await refuseForeignOrigin(request);
}

/**
 * A check as an onRequest hook that answers its own refusal: a hook's error goes to the error
 * handler of the route's plugin, and bull-board's has one of its own that would reshape it.
 */
function answering(check: (request: FastifyRequest) => Promise<void>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    try {
      await check(request);
    } catch (error) {
      if (error instanceof HttpError) return sendHttpError(reply, error);
      throw error;
    }
  };
}

/**
 * The admin area: every admin route and socket, registered inside this one encapsulated plugin
 * whose onRequest hooks run for all of them before a body is read, so a new admin route cannot
 * skip the guard. In order: a foreign page's socket is refused, a signed-out browser opening
 * bull-board is sent to /auth, then requireAdmin (401/403, CSRF), and nothing is cached.
 * Routes keep their full URLs (no prefix): the named call /api/functions/admin-fetch-data is one.
 */
export async function adminArea(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.addHook('onRequest', answering(refuseForeignSocket));
  app.addHook('onRequest', redirectSignedOutBoardPage(deps.pool));
  app.addHook('onRequest', answering(requireAdmin(deps.pool)));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  for (const routes of [
    adminDataRoutes,
    adminLeadRoutes,
    adminBookingRoutes,
    adminMirrorSessionRoutes,
    adminIntegrationRoutes,
    siteSettingsRoutes,
    adminEmailRoutes,
    gradingRoutes,
    adminJobRoutes,
    refundRoutes,
    monitorRoutes,
    bullBoardRoutes,
    adminLiveRoutes,
    monitorSocket,
  ]) {
    await app.register(routes, deps);
  }
}
