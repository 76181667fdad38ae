import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie, setSessionCookie } from '../auth/cookie.js';
import { hashForUnknownEmail, verifyCredentials } from '../auth/credentials.js';
import { changeOwnPassword, recordSignIn } from '../auth/admin-users.js';
import { sessionToken, signedInAdmin } from '../auth/guard.js';
import {
  CHANGE_PASSWORD_MESSAGES,
  changePasswordBodySchema,
  errorBodySchema,
  SIGN_IN_MESSAGES,
  sessionResponseSchema,
  signedInSchema,
  signInBodySchema,
} from '../auth/schemas.js';
import { createSession, csrfTokenFor, deleteSession, readSession } from '../auth/sessions.js';
import { describeWait, SignInThrottle } from '../auth/sign-in-throttle.js';
import { inTransaction } from '#core/db/transaction.js';
import { queueEmail } from '#core/email/outbox.js';
import { signInNotice } from '#core/email/templates.js';
import { HttpError } from '#core/http-error.js';
import { rateLimits, TooManyRequestsError } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** A sign-in body that fails validation answers with its field's own text (thrown on to the app's error handler). */
function signInValidationError(error: FastifyError): never {
  if (!error.validation?.length) throw error;
  const fields: Record<string, string> = {};
  for (const issue of error.validation) fields[issue.instancePath.slice(1) || 'body'] ??= issue.message ?? 'is invalid';
  throw new HttpError(400, fields.password ?? Object.values(fields)[0]!, { fields });
}

/**
 * POST /api/auth/sign-in, POST /api/auth/sign-out, GET /api/auth/session and
 * POST /api/auth/change-password: admin sign-in only, no registration.
 */
export async function authRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'config' | 'pool' | 'redis'>): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new SignInThrottle(deps.redis, `${deps.config.RATE_LIMIT_PREFIX ?? deps.config.QUEUE_PREFIX}:rate-limit`, app.log);

  /** Tells an existing account's owner that it sees many failed sign-ins (an unknown address is told nothing). */
  async function noticeOwner(email: string, failures: number, addresses: number): Promise<void> {
    await inTransaction(deps.pool, async (client) => {
      const account = await client.query<{ email: string }>('SELECT email FROM users WHERE email = lower($1)', [email]);
      if (!account.rows[0]) return;
      await queueEmail(client, {
        kind: 'sign_in_notice',
        to: account.rows[0].email,
        ...signInNotice({ failures, addresses, siteUrl: deps.config.publicUrl }),
      });
    }).catch((error: unknown) => app.log.warn({ err: error }, 'could not queue the failed sign-ins notice'));
  }
  await hashForUnknownEmail();
  // answers carry the CSRF token: never cached anywhere
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  api.post(
    '/api/auth/sign-in',
    {
      config: { rateLimit: rateLimits.signIn },
      errorHandler: signInValidationError,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password; sets the session cookie (hf_session, or __Host-hf_session on https)',
        body: signInBodySchema,
        response: { 200: signedInSchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const waitMs = await throttle.waitFor(email, request.ip);
      if (waitMs) {
        reply.header('retry-after', Math.ceil(waitMs / 1000));
        throw new TooManyRequestsError(describeWait(waitMs), 'Too many failed sign-in attempts from here for this email.');
      }
      const user = await verifyCredentials(deps.pool, email, password);
      if (!user) {
        const failed = await throttle.failed(email, request.ip);
        if (failed.notify) await noticeOwner(email, failed.failures, failed.addresses);
        throw new HttpError(401, SIGN_IN_MESSAGES.invalidCredentials);
      }
      await throttle.succeeded(email, request.ip);
      // a new sign-in replaces whatever session this browser had
      await deleteSession(deps.pool, sessionToken(request));
      const { token, expiresAt } = await createSession(deps.pool, user.id, { ip: request.ip, userAgent: request.headers['user-agent'] });
      await recordSignIn(deps.pool, user.id);
      setSessionCookie(reply, deps.config, token, expiresAt);
      return { user, csrfToken: csrfTokenFor(token) };
    },
  );

  api.post(
    '/api/auth/sign-out',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the current session and clear its cookie (200 with or without a session)',
        response: { 200: z.object({ signedOut: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      await deleteSession(deps.pool, sessionToken(request));
      clearSessionCookie(reply, deps.config);
      return { signedOut: true as const };
    },
  );

  api.get(
    '/api/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and their CSRF token, or { user: null }',
        response: { 200: sessionResponseSchema },
      },
    },
    async (request, reply) => {
      const token = sessionToken(request);
      const session = await readSession(deps.pool, token);
      if (!session) {
        if (token) clearSessionCookie(reply, deps.config);
        return { user: null };
      }
      // the session slid forward (up to its absolute lifetime); so does the cookie
      setSessionCookie(reply, deps.config, token!, session.expiresAt);
      return {
        user: { id: session.id, email: session.email, role: session.role, mustChangePassword: session.mustChangePassword },
        csrfToken: csrfTokenFor(token!),
      };
    },
  );

  api.post(
    '/api/auth/change-password',
    {
      // each attempt costs two scrypt runs: counted like sign-ins
      config: { rateLimit: rateLimits.signIn },
      schema: {
        tags: ['auth'],
        summary: "Change the signed-in admin's password (required first when it was generated); ends their other sessions",
        body: changePasswordBodySchema,
        response: { 200: signedInSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      // the admin guard's checks, except that this is what a generated password must do first
      const session = await signedInAdmin(deps.pool, request, { forPasswordChange: true });
      const { currentPassword, newPassword } = request.body;
      const changed = await changeOwnPassword(deps.pool, { userId: session.id, sessionToken: session.token, currentPassword, newPassword });
      if (!changed) {
        const message = CHANGE_PASSWORD_MESSAGES.wrongCurrent;
        throw new HttpError(400, message, { fields: { currentPassword: message } });
      }
      request.log.info({ userId: session.id }, 'admin password changed');
      return {
        user: { id: session.id, email: session.email, role: session.role, mustChangePassword: false },
        csrfToken: csrfTokenFor(session.token),
      };
    },
  );
}
