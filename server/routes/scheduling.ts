import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '#core/http-error.js';
import { schedulingWebhookKey } from '#core/integrations/settings.js';
import { BookingEventError, bookingEvent } from '#core/scheduling/booking-events.js';
import { providerOf, SchedulingSignatureError, verifyCalcom, verifyCalendly } from '#core/scheduling/signatures.js';
import { handleBookingEvent } from '#core/scheduling/webhook.js';
import { errorBodySchema } from '../auth/schemas.js';
import { assertNestingWithin } from '../plugins/input-limits.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

const webhookResponse = z.object({
  received: z.literal(true),
  duplicate: z.literal(true).optional(),
  applied: z.boolean().optional(),
  reason: z.string().optional(),
});

/**
 * POST /api/integrations/scheduling/webhook: Calendly's and Cal.com's signed booking events, in a
 * plugin of its own that reads JSON bodies as raw bytes (what the signatures are computed over).
 * The provider is told by the signature header it sends; the key is the one the coach saved in the
 * scheduling card. Verified events move the lead's flow to booked and back (core/scheduling/).
 */
export function schedulingRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/integrations/scheduling/webhook',
    {
      config: { rateLimit: rateLimits.schedulingEvents },
      schema: {
        tags: ['integrations'],
        summary:
          'Receive a signed Calendly (invitee.created/canceled) or Cal.com (BOOKING_CREATED/RESCHEDULED/CANCELLED) event; each event id is applied once',
        response: { 200: webhookResponse, 400: errorBodySchema, 401: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      const provider = providerOf(request.headers);
      if (!provider) throw new HttpError(401, 'Missing signature: expected a Calendly-Webhook-Signature or X-Cal-Signature-256 header.');
      const key = await schedulingWebhookKey(deps.pool);
      if (!key) throw new HttpError(503, 'Scheduling webhooks are not configured: save the signing key in Integrations.');
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      try {
        if (provider === 'calendly') verifyCalendly(key, rawBody, request.headers['calendly-webhook-signature']);
        else verifyCalcom(key, rawBody, request.headers['x-cal-signature-256']);
      } catch (error) {
        if (!(error instanceof SchedulingSignatureError)) throw error;
        request.log.warn({ provider, reason: error.message }, 'scheduling webhook refused');
        throw new HttpError(401, error.message);
      }
      const text = rawBody.toString('utf8');
      assertNestingWithin(text, 'body', request.log);
      let event;
      try {
        event = bookingEvent(provider, JSON.parse(text));
      } catch (error) {
        if (error instanceof SyntaxError) throw new HttpError(400, 'body: expected a JSON object');
        if (error instanceof BookingEventError) throw new HttpError(400, error.message);
        throw error;
      }
      const outcome = await handleBookingEvent(deps.engine, provider, event, request.log, deps.config.COACH_CANCELLATION_POLICY);
      if (outcome.duplicate) return { received: true as const, duplicate: true as const };
      return outcome.applied
        ? { received: true as const, applied: true }
        : { received: true as const, applied: false, reason: outcome.reason };
    },
  );
  done();
}
