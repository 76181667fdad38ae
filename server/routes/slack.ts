import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '#core/http-error.js';
import { acceptSlackEvent, slackEnvelopeSchema } from '#core/slack/events.js';
import { SlackSignatureError, verifySlackSignature } from '#core/slack/signature.js';
import { errorBodySchema } from '../auth/schemas.js';
import { assertNestingWithin } from '../plugins/input-limits.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

const slackResponse = z.union([
  z.object({ challenge: z.string() }),
  z.object({ ok: z.literal(true), duplicate: z.literal(true).optional(), ignored: z.string().optional() }),
]);

/**
 * POST /api/slack/events, the Slack app's Events API request URL, in a plugin of its own: it reads
 * JSON bodies as raw bytes, which the v0 signature is computed over. It only verifies, records the
 * event id and queues a job, so Slack hears 200 well within its 3 s. The team-chat monitor it feeds
 * is in the admin plugin (server/admin/index.ts).
 */
export function slackRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'config' | 'pool'>, done: () => void): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/slack/events',
    {
      config: { rateLimit: rateLimits.slackEvents },
      schema: {
        tags: ['slack'],
        summary:
          "Slack's Events API: answers the URL check; verifies the v0 signature; records each event id once and processes it in a job",
        response: { 200: slackResponse, 400: errorBodySchema, 401: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      const secret = deps.config.SLACK_SIGNING_SECRET;
      if (!secret) throw new HttpError(503, 'Slack events are not configured: set SLACK_SIGNING_SECRET.');
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      try {
        verifySlackSignature({
          secret,
          rawBody,
          timestamp: request.headers['x-slack-request-timestamp'],
          signature: request.headers['x-slack-signature'],
        });
      } catch (error) {
        if (!(error instanceof SlackSignatureError)) throw error;
        request.log.warn({ reason: error.message }, 'Slack request refused');
        throw new HttpError(401, error.message);
      }
      const text = rawBody.toString('utf8');
      assertNestingWithin(text, 'body', request.log);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new HttpError(400, 'body: expected a JSON object');
      }
      const parsed = slackEnvelopeSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new HttpError(400, `body${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`);
      }
      const envelope = parsed.data;
      if (envelope.type === 'url_verification') return { challenge: envelope.challenge };
      if (envelope.type === 'app_rate_limited') return { ok: true as const, ignored: 'app_rate_limited' };
      const fresh = await acceptSlackEvent(deps.pool, envelope.event_id, envelope.event);
      if (!fresh)
        request.log.info({ eventId: envelope.event_id, retry: request.headers['x-slack-retry-num'] }, 'Slack event already received');
      return fresh ? { ok: true as const } : { ok: true as const, duplicate: true as const };
    },
  );
  done();
}
