import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { CSRF_HEADER, isCsrfTokenValid, readSession, type SessionUser } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin, set by requireAdmin. */
    admin?: SessionUser;
  }
  interface FastifyInstance {
    /** The session cookie's name for this site (see sessionCookieName), decorated by buildApp. */
    sessionCookieName: string;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The 403 of every admin route while the account still has its generated first password. */
const MUST_CHANGE_PASSWORD_MESSAGE = 'Change your generated password before using the admin area.';

/** The session cookie of a request (needs @fastify/cookie registered). */
export function sessionToken(request: FastifyRequest): string | undefined {
  return (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[request.server.sessionCookieName];
}

/**
 * A preHandler for every admin route: 401 without a live session, 403 for a user who is not an
 * admin or who has not yet changed a generated first password, 403 for a state-changing request
 * without the session's CSRF token.
 */
export function requireAdmin(pool: pg.Pool) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = sessionToken(request);
    const user = await readSession(pool, token);
    if (!user) {
      return reply.status(401).send({ statusCode: 401, error: 'Unauthorized', message: 'Sign in as an admin first.' });
    }
    if (user.role !== 'admin') {
      return reply.status(403).send({ statusCode: 403, error: 'Forbidden', message: 'This needs an admin account.' });
    }
    if (user.mustChangePassword) {
      return reply.status(403).send({ statusCode: 403, error: 'Forbidden', message: MUST_CHANGE_PASSWORD_MESSAGE });
    }
    if (!SAFE_METHODS.has(request.method) && !isCsrfTokenValid(token!, request.headers[CSRF_HEADER] as string | undefined)) {
      return reply.status(403).send({ statusCode: 403, error: 'Forbidden', message: `Missing or wrong ${CSRF_HEADER} header.` });
    }
    request.admin = { id: user.id, email: user.email, role: user.role, mustChangePassword: false };
  };
}

/**
 * An onRequest hook for admin websockets: a browser sends the session cookie with any page's
 * websocket handshake, so one opened from another origin is refused (403) before the upgrade.
 * Non-browser clients send no Origin and pass on to the session check.
 */
export async function refuseForeignOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // an unparseable Origin is as foreign as any other
  }
  if (host !== request.headers.host) {
    return reply
      .status(403)
      .send({ statusCode: 403, error: 'Forbidden', message: 'This socket only accepts connections from the site itself.' });
  }
}
