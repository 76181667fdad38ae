import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { monitorClientFrameSchema, monitorSnapshotSchema, type MonitorServerFrame } from '#machines/protocol/monitor.js';
import { refuseForeignOrigin, requireAdmin, sessionToken } from '../auth/guard.js';
import { errorBodySchema } from '../auth/schemas.js';
import { rateLimits } from '../plugins/security.js';
import { readClientFrame } from '../plugins/socket-frames.js';
import { acceptSlackEvent, slackEnvelopeSchema } from '#core/slack/events.js';
import { MonitorHub } from '#core/slack/monitor-hub.js';
import { monitorCounts, monitorSnapshot } from '#core/slack/monitor-store.js';
import { SlackSignatureError, verifySlackSignature } from '#core/slack/signature.js';
import type { RouteDeps } from './deps.js';

const slackResponse = z.union([
  z.object({ challenge: z.string() }),
  z.object({ ok: z.literal(true), duplicate: z.literal(true).optional(), ignored: z.string().optional() }),
]);

/**
 * POST /api/slack/events, the Slack app's Events API request URL, in a plugin of its own: it reads
 * JSON bodies as raw bytes, which the v0 signature is computed over. It only verifies, records the
 * event id and queues a job, so Slack hears 200 well within its 3 s.
 */
function slackEvents(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const fail = (statusCode: 400 | 401 | 503, error: string, message: string) => ({ statusCode, error, message });

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
    async (request, reply) => {
      const secret = deps.config.SLACK_SIGNING_SECRET;
      if (!secret) {
        return reply.status(503).send(fail(503, 'Service Unavailable', 'Slack events are not configured: set SLACK_SIGNING_SECRET.'));
      }
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
        return reply.status(401).send(fail(401, 'Unauthorized', error.message));
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return reply.status(400).send(fail(400, 'Bad Request', 'body: expected a JSON object'));
      }
      const parsed = slackEnvelopeSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return reply
          .status(400)
          .send(fail(400, 'Bad Request', `body${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`));
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

/**
 * The team-chat monitor: its opening snapshot at GET /api/admin/monitor and
 * its socket at /api/functions/slack-monitor, both for admins only. The socket speaks the spec's
 * protocol: the browser sends {type: get_status} and hears status, slack_message,
 * assessment_processed, assessment_error and error frames. Frames come from the workers through
 * Redis, so every server process's monitors hear every event.
 */
function teamChatMonitor(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', refuseForeignOrigin);
  app.addHook('onRequest', requireAdmin(deps.pool));
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const statusFrame = async (): Promise<MonitorServerFrame> => {
    const counts = await monitorCounts(deps.pool);
    return deps.config.SLACK_SIGNING_SECRET
      ? { type: 'status', status: 'listening', ...counts, message: 'Listening for Slack events.' }
      : { type: 'status', status: 'not_configured', ...counts, message: 'Slack events are not configured: set SLACK_SIGNING_SECRET.' };
  };
  const hub = new MonitorHub(
    deps.redis,
    deps.config.QUEUE_PREFIX,
    () =>
      void statusFrame().then(
        (frame) => hub.sendLocal(frame),
        (error: unknown) => app.log.warn({ err: error }, 'monitor counters unavailable'),
      ),
    app.log,
  );
  app.addHook('onClose', () => hub.stop());

  api.get(
    '/api/admin/monitor',
    {
      schema: {
        tags: ['admin'],
        summary: 'The team-chat monitor on opening: counters, the latest 50 bot messages and the latest 20 completed assessments',
        response: { 200: monitorSnapshotSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    () => monitorSnapshot(deps.pool),
  );

  app.get('/api/functions/slack-monitor', { websocket: true, schema: { hide: true } }, (socket, request) => {
    const send = (frame: MonitorServerFrame | string) => {
      if (socket.readyState === socket.OPEN) socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    };
    const stopListening = hub.listen(send);
    const session = deps.adminSockets.watch(socket, sessionToken(request), request.log);

    socket.on('message', (raw) => {
      // get_status is the only frame a monitor sends
      const read = readClientFrame(raw, monitorClientFrameSchema);
      if ('error' in read) return send({ type: 'error', error: read.error });
      session
        .stillSignedIn()
        .then(async (signedIn) => signedIn && send(await statusFrame()))
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'monitor status failed');
          send({ type: 'error', error: 'Could not read the monitor counters right now; try again.' });
        });
    });
    socket.on('close', stopListening);
  });
  done();
}

/** Slack's Events API endpoint and the team-chat monitor it feeds. */
export async function slackRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  await app.register(slackEvents, deps);
  await app.register(teamChatMonitor, deps);
}
