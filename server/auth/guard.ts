import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { HttpError } from '#core/http-error.js';
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

/** The admin a request's session belongs to, with its token. */
type SignedInAdmin = SessionUser & { token: string };

/**
 * The signed-in admin of a request, or the HttpError it is refused with: 401 without a live
 * session, 403 for a user who is not an admin or who has not yet changed a generated first
 * password, 403 for a state-changing request without the session's CSRF token. Changing that
 * password is the one thing such an account may do (`forPasswordChange`).
 */
export async function signedInAdmin(
  pool: pg.Pool,
  request: FastifyRequest,
  { forPasswordChange = false }: { forPasswordChange?: boolean } = {},
): Promise<SignedInAdmin> {
  const token = sessionToken(request);
  const user = await readSession(pool, token);
  if (!user || !token) throw new HttpError(401, forPasswordChange ? 'Sign in first.' : 'Sign in as an admin first.');
  if (user.role !== 'admin') throw new HttpError(403, 'This needs an admin account.');
  if (user.mustChangePassword && !forPasswordChange) throw new HttpError(403, MUST_CHANGE_PASSWORD_MESSAGE);
  if (!SAFE_METHODS.has(request.method) && !isCsrfTokenValid(token, request.headers[CSRF_HEADER] as string | undefined)) {
    throw new HttpError(403, `Missing or wrong ${CSRF_HEADER} header.`);
  }
  return { ...user, token };
}

/**
 * The hook of the admin plugin (server/admin/index.ts), run for every admin route and socket
 * before its body is read: signedInAdmin, kept as request.admin.
 */
export function requireAdmin(pool: pg.Pool) {
  return async (request: FastifyRequest): Promise<void> => {
    const user = await signedInAdmin(pool, request);
    request.admin = { id: user.id, email: user.email, role: user.role, mustChangePassword: false };
  };
}

/** True when a request carries no Origin (not a browser) or its own site's. */
function fromOwnSite(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    // an unparseable Origin is as foreign as any other
    return false;
  }
}

/**
 * An onRequest hook for admin websockets: a browser sends the session cookie with any page's
 * websocket handshake, so one opened from another origin is refused (403) before the upgrade.
 * Non-browser clients send no Origin and pass on to the session check.
 */
export function refuseForeignOrigin(request: FastifyRequest): Promise<void> {
  if (fromOwnSite(request)) return Promise.resolve();
  return Promise.reject(new HttpError(403, 'This socket only accepts connections from the site itself.'));
}
