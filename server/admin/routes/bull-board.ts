import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { QUEUE_NAMES } from '#core/queues/names.js';
import { sessionToken } from '../../auth/guard.js';
import { readSession } from '../../auth/sessions.js';
import { inlineStylePolicy } from '../../plugins/security.js';
import type { RouteDeps } from '../../routes/deps.js';

/** Where bull-board answers: its page, its assets under static/ and its JSON API under api/. */
export const BULL_BOARD_PATH = '/admin/queues';

/**
 * bull-board's page renders with inline styles (its loading screen, its charts) and asks Google
 * for fonts. Only this prefix allows inline styles; the fonts stay refused (an admin page phones
 * nowhere) and the page falls back to system fonts.
 */
const BULL_BOARD_CSP = inlineStylePolicy();

/** A browser navigating to the page (not its API or assets). */
function wantsPage(request: FastifyRequest): boolean {
  return (
    request.method === 'GET' && !request.url.startsWith(`${BULL_BOARD_PATH}/api/`) && (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * An onRequest hook the admin plugin runs before its guard: a signed-out browser opening the board's
 * page is sent to /auth (303), where the guard would answer JSON; anything else goes on to the guard.
 */
export function redirectSignedOutBoardPage(pool: pg.Pool) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!request.url.startsWith(BULL_BOARD_PATH) || !wantsPage(request)) return;
    // the sign-in page brings the admin back here (it follows only paths under /admin)
    if (!(await readSession(pool, sessionToken(request)))) return reply.redirect(`/auth?next=${encodeURIComponent(request.url)}`, 303);
  };
}

/**
 * bull-board at /admin/queues, inside the admin plugin: a signed-out browser opening the page is
 * sent to /auth, anything else without an admin session gets the guard's 401/403 JSON. The board
 * is read-only: the jobs table is the system of record, so retrying and removing go through the
 * Jobs screen (which keeps the row and BullMQ in step) and bull-board's state-changing API refuses.
 */
export async function bullBoardRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'queues'>): Promise<void> {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', BULL_BOARD_CSP);
  });

  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: QUEUE_NAMES.map((name) => new BullMQAdapter(deps.queues[name], { readOnlyMode: true })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Queues (read-only)' } },
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
}
