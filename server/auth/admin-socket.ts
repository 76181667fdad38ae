import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { WebSocket } from 'ws';
import { ADMIN_LIVE_SESSION_ENDED } from '../../machines/protocol/admin-live.js';
import { readSession } from './sessions.js';

/** How often an open admin socket checks that its admin is still signed in. */
export const ADMIN_SESSION_CHECK_MS = 60_000;

/**
 * Keeps an admin socket tied to the session that opened it: every `everyMs`, and whenever the
 * caller asks (`stillSignedIn`), the session is read again and the socket closed with 4401 once
 * it has ended. The database not answering is not the admin signing out: the check runs again.
 */
export function watchAdminSession(socket: WebSocket, pool: pg.Pool, token: string | undefined, log: FastifyBaseLogger, everyMs = ADMIN_SESSION_CHECK_MS) {
  const stillSignedIn = async (): Promise<boolean> => {
    const user = await readSession(pool, token);
    if (user?.role === 'admin') return true;
    socket.close(ADMIN_LIVE_SESSION_ENDED, 'Your admin session has ended; sign in again.');
    return false;
  };
  const timer = setInterval(() => stillSignedIn().catch((error: unknown) => log.warn({ err: error }, 'admin socket session check failed')), everyMs);
  return { stillSignedIn, stop: () => clearInterval(timer) };
}
