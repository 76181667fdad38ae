import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie, setSessionCookie } from '../auth/cookie.js';
import { hashForUnknownEmail, recordSignIn, verifyCredentials } from '../auth/credentials.js';
import { sessionToken } from '../auth/guard.js';
import {
  errorBodySchema,
  SIGN_IN_MESSAGES,
  sessionResponseSchema,
  signedInSchema,
  signInBodySchema,
} from '../auth/schemas.js';
import { createSession, csrfTokenFor, deleteSession, readSession } from '../auth/sessions.js';
import { describeWait, SignInLimiter } from '../auth/sign-in-limiter.js';
import type { ErrorBody } from '../plugins/error-handler.js';
import { rateLimits, TooManyRequestsError } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

/** A sign-in body that fails validation answers with its field's own text (spec section 8). */
function signInValidationError(error: FastifyError, _request: unknown, reply: FastifyReply) {
  if (!error.validation?.length) throw error; // anything else goes to the app's error handler
  const fields: Record<string, string> = {};
  for (const issue of error.validation) fields[issue.instancePath.slice(1) || 'body'] ??= issue.message ?? 'is invalid';
  const message = fields.password ?? Object.values(fields)[0]!;
  return reply.status(400).send({ statusCode: 400, error: 'Bad Request', message, fields } satisfies ErrorBody);
}

/** POST /api/auth/sign-in, POST /api/auth/sign-out, GET /api/auth/session: admin sign-in only, no registration. */
export async function authRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'config' | 'pool' | 'redis'>): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const limiter = new SignInLimiter(deps.redis, `${deps.config.QUEUE_PREFIX}:rate-limit`, app.log);
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
        summary: 'Sign in with email and password; sets the hf_session cookie',
        body: signInBodySchema,
        response: { 200: signedInSchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const lockedMs = await limiter.attempt(email);
      if (lockedMs) {
        reply.header('retry-after', Math.ceil(lockedMs / 1000));
        throw new TooManyRequestsError(describeWait(lockedMs), 'Too many failed sign-in attempts for this email.');
      }
      const user = await verifyCredentials(deps.pool, email, password);
      if (!user) {
        return reply.status(401).send({ statusCode: 401, error: 'Unauthorized', message: SIGN_IN_MESSAGES.invalidCredentials });
      }
      await limiter.reset(email);
      // a new sign-in replaces whatever session this browser had
      await deleteSession(deps.pool, sessionToken(request));
      const { token } = await createSession(deps.pool, user.id, { ip: request.ip, userAgent: request.headers['user-agent'] });
      await recordSignIn(deps.pool, user.id);
      setSessionCookie(request, reply, deps.config, token);
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
      clearSessionCookie(request, reply, deps.config);
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
      const user = await readSession(deps.pool, token);
      if (!user) {
        if (token) clearSessionCookie(request, reply, deps.config);
        return { user: null };
      }
      // the session slid forward; so does the cookie
      setSessionCookie(request, reply, deps.config, token!);
      return { user, csrfToken: csrfTokenFor(token!) };
    },
  );
}
