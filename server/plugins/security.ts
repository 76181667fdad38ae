import helmet from 'helmet';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../routes/deps.js';

/**
 * Per-route rate limits, per client address (docs/security.md, "Limits"). Opt a route in with
 * `{ config: { rateLimit: rateLimits.contact } }`. Every public write has one, sized well above
 * what a visitor's own assessment needs (an assessment is about 3 flows and 60 events; several
 * people behind one office address still fit), so only scripts meet them.
 */
export const rateLimits = {
  /** Flow starts (POST /api/flows, and the adapters that start one). */
  flowStarts: { max: 100, timeWindow: '10 minutes' },
  /** Events on flows, and the adapters that apply one (qualification, the workflow proxy). */
  flowEvents: { max: 1500, timeWindow: '10 minutes' },
  /** createOrUpdateLead (POST /api/leads). */
  leads: { max: 20, timeWindow: '10 minutes' },
  /** Token links checked (check-token, init-from-token): guessing is the attack. */
  tokens: { max: 20, timeWindow: '10 minutes' },
  /** Standalone diagnostics started, and their answers. */
  diagnostics: { max: 30, timeWindow: '10 minutes' },
  diagnosticAnswers: { max: 600, timeWindow: '10 minutes' },
  /** Homework sends asked for by name (the workflow proxy's send-homework). */
  homework: { max: 10, timeWindow: '10 minutes' },
  /** PDF reports built (each costs CPU). */
  reports: { max: 60, timeWindow: '10 minutes' },
  /** Flow socket connections opened. */
  sockets: { max: 60, timeWindow: '10 minutes' },
  /** Sign-in attempts from one IP (the per-account, per-address wait lives in server/auth/sign-in-throttle.ts). */
  signIn: { max: 10, timeWindow: '15 minutes' },
  /** Contact messages (send-contact-email). */
  contact: { max: 5, timeWindow: '10 minutes' },
  /** Mirror replies (mirror-llm-response): five exchanges a session, a few sessions' worth. */
  mirror: { max: 30, timeWindow: '10 minutes' },
  /** Checkout starts (create-payment): each may open a Stripe session, so a burst is refused. */
  payment: { max: 20, timeWindow: '10 minutes' },
  /** Visit counts (POST /api/visits): one per tab session, so more is a script. */
  visits: { max: 30, timeWindow: '10 minutes' },
  /** Slack's Events API: Slack's own bursts fit well inside; a flood of forged requests does not. */
  slackEvents: { max: 600, timeWindow: '1 minute' },
  /** Stripe's webhook deliveries, likewise. */
  stripeEvents: { max: 600, timeWindow: '1 minute' },
  /** Calendly's and Cal.com's booking webhooks, likewise. */
  schedulingEvents: { max: 600, timeWindow: '1 minute' },
} as const satisfies Record<string, RateLimitOptions>;

/** The error a rate limit throws, shaped by the app's error handler into { statusCode, error, message }. */
export class TooManyRequestsError extends Error {
  readonly statusCode = 429;
  constructor(after: string, reason = 'Too many requests.') {
    super(`${reason} Please wait ${after} and try again.`);
    this.name = 'TooManyRequestsError';
  }
}

/**
 * The policy for a third-party page that sets inline styles (swagger-ui at /api/docs, bull-board):
 * the site's own policy plus 'unsafe-inline' styles and the given image sources. Scripts stay
 * same-origin only.
 */
export function inlineStylePolicy(imageSources: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data:", ...imageSources].join(' '),
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** swagger-ui also loads its validator badge. */
const DOCS_CSP = inlineStylePolicy(['https://validator.swagger.io']);

/**
 * Security headers (helmet) and the rate limiter, added to the instance it is given. app.ts calls
 * it on the root instance (not through register), and the rate limiter is fastify-plugin wrapped,
 * so the hooks reach every route registered after this call.
 */
export async function security(app: FastifyInstance, deps: Pick<RouteDeps, 'config' | 'redis'>): Promise<void> {
  const publicUrl = new URL(deps.config.publicUrl);
  const https = publicUrl.protocol === 'https:';
  // 'self' covers same-origin sockets in CSP3 browsers; the public origin's ws(s) scheme is
  // spelled out for the ones that predate it
  const socketOrigin = `${https ? 'wss' : 'ws'}://${publicUrl.host}`;

  // helmet's middleware is built once, here: @fastify/helmet would build it again (parsing the
  // policy) on every request, which made the security headers most of a small answer's cost
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", socketOrigin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Stripe Checkout is a top-level navigation in a new tab: no frame or script entry needed
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // the deposit opens Stripe Checkout in a new tab; the opener must keep its handle on it
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    xFrameOptions: { action: 'deny' },
    // browsers ignore HSTS over http; sending it from a plain-http deployment only misleads
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  // callback hooks, not async ones: every answer passes through them
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => {
      if (error) return done(error as Error);
      if (request.url === '/api/docs' || request.url.startsWith('/api/docs/')) reply.header('content-security-policy', DOCS_CSP);
      done();
    });
  });
  // API answers carry flows, leads, results and admin data: never kept by a browser or a shared cache
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  await app.register(rateLimit, {
    global: false,
    redis: deps.redis,
    nameSpace: `${deps.config.RATE_LIMIT_PREFIX ?? deps.config.QUEUE_PREFIX}:rate-limit:`,
    // a Redis outage must not lock every visitor out
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new TooManyRequestsError(context.after),
  });
}
