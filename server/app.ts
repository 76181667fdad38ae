import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { AdminSockets } from './auth/admin-socket.js';
import type { Config } from '#core/config/index.js';
import { FlowEngine } from '#core/flows/engine.js';
import type { WriteVersions } from '#core/flows/flow-store.js';
import { PushHub, redisPublisher } from '#core/flows/push.js';
import { ChannelListener } from '#core/db/channel-listener.js';
import { PublicSettings } from '#core/site/public-settings.js';
import { sessionCookieName } from './auth/cookie.js';
import { logSerializers } from '#core/log-serializers.js';
import { loggerOptions } from '#core/logger.js';
import { directEnqueuer } from '#core/queues/direct.js';
import { closeQueues, openQueues } from '#core/queues/queues.js';
import { compressAnswers } from './plugins/compression.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { apiDocs, openApi } from './plugins/openapi.js';
import { inputLimits } from './plugins/input-limit-hooks.js';
import { INPUT_LIMITS } from './plugins/input-limits.js';
import { security } from './plugins/security.js';
import { refuseUnstorableText } from './plugins/storable-text.js';
import { builtSite, staticSite } from './plugins/static-site.js';
import { adminArea } from './admin/index.js';
import { authRoutes } from './routes/auth.js';
import { clientLogRoutes } from './routes/client-log.js';
import { contactRoutes } from './routes/contact.js';
import { contactFormRoutes } from './routes/contact-form.js';
import type { RouteDeps } from './routes/deps.js';
import { diagnosticRoutes } from './routes/diagnostics.js';
import { flowRoutes } from './routes/flows.js';
import { followUpRoutes } from './routes/follow-ups.js';
import { functionRoutes } from './routes/functions.js';
import { leadRoutes } from './routes/leads.js';
import { publicConfigRoutes } from './routes/public-config.js';
import { healthRoutes } from './routes/health.js';
import { mirrorRoutes } from './routes/mirror.js';
import { paymentRoutes } from './routes/payments.js';
import { reportRoutes } from './routes/reports.js';
import { visitRoutes } from './routes/visits.js';
import { schedulingRoutes } from './routes/scheduling.js';
import { slackRoutes } from './routes/slack.js';
import { socketErrorHandler } from './sockets/frames.js';
import { flowSocket } from './sockets/flows.js';
import { Visitors } from './visitors/visitor-cookie.js';

export interface AppDeps {
  config: Config;
  pool: pg.Pool;
  redis: Redis;
  /** Overrides the logger (tests pass false to keep output quiet). */
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web app; defaults to web/dist. */
  webRoot?: string;
  /** The machine versions flows are written at (the process's MachineFleet); default this build's. */
  writeVersions?: WriteVersions;
}

/**
 * A stopping server drains (decision 0057): once close() began, every answer closes its connection,
 * so a keep-alive connection whose request was in flight does not hold the stop open until its idle
 * timeout; the idle ones fastify closes at once (forceCloseConnections: 'idle').
 */
function drainOnClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** Builds the whole HTTP + websocket application without listening (tests inject requests into it). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // client addresses (rate limits, audit) come from X-Forwarded-For only through known proxies
  const hops = deps.config.TRUST_PROXY_HOPS;
  const trustProxy: FastifyServerOptions['trustProxy'] = hops > 0 ? (_address: string, hop: number) => hop < hops : false;
  const app = Fastify({
    // a logger given by a test still writes requests and errors the way production does
    logger:
      deps.logger === undefined
        ? loggerOptions(deps.config, 'server')
        : typeof deps.logger === 'object'
          ? { serializers: logSerializers, ...deps.logger }
          : deps.logger,
    trustProxy,
    bodyLimit: INPUT_LIMITS.bodyBytes,
    // keep-alive sockets must not hold a shutdown open
    forceCloseConnections: 'idle',
    // a stopping server finishes every request it has accepted (a drain), rather than answering 503
    // to one that reached it as it began to close
    return503OnClosing: false,
  });
  registerErrorHandler(app);
  drainOnClose(app);
  inputLimits(app);
  refuseUnstorableText(app);
  const pushes = new PushHub(deps.redis, deps.config.QUEUE_PREFIX, app.log);
  await pushes.start();
  app.addHook('onClose', () => pushes.stop());
  const queues = openQueues(deps.redis, deps.config.QUEUE_PREFIX);
  // with Redis down a queue's connection errors repeat; health checks and answers (503, redis: 'down') say so already
  for (const queue of Object.values(queues))
    queue.on('error', (error) => app.log.debug({ err: error, queue: queue.name }, 'queue connection error'));
  app.addHook('onClose', () => closeQueues(queues));
  const engine = new FlowEngine(
    deps.pool,
    redisPublisher(deps.redis, deps.config.QUEUE_PREFIX),
    app.log,
    directEnqueuer(deps.pool, queues),
    deps.writeVersions,
  );
  const visitors = new Visitors(deps.pool, deps.config);
  // one LISTEN connection for the server's notices: sessions ended, settings changed
  const notices = new ChannelListener(deps.pool, app.log);
  const adminSockets = new AdminSockets(deps.pool, notices, app.log);
  const publicSettings = new PublicSettings(deps.pool, notices);
  notices.startSoon();
  app.addHook('onClose', () => notices.stop());
  const routeDeps: RouteDeps = {
    config: deps.config,
    pool: deps.pool,
    redis: deps.redis,
    engine,
    pushes,
    queues,
    visitors,
    adminSockets,
    publicSettings,
  };

  // root-level on purpose: compilers, cookies, headers and rate limits apply to every route below
  await openApi(app);
  await app.register(cookie);
  app.decorate('sessionCookieName', sessionCookieName(deps.config));
  visitors.install(app);
  await security(app, routeDeps);
  // at the root, so every plugin can declare websocket routes (server/sockets/); browsers' frames are small
  await app.register(websocket, { options: { maxPayload: INPUT_LIMITS.frameBytes }, errorHandler: socketErrorHandler });
  // the static site sends its files and pages compressed ahead of time; every route after it is compressed as it answers
  const site = builtSite({ root: deps.webRoot, publicUrl: deps.config.publicUrl, settings: publicSettings, log: app.log });
  await app.register(staticSite, { site, publicUrl: deps.config.publicUrl });
  await compressAnswers(app);
  await apiDocs(app);
  await app.register(healthRoutes, { pool: deps.pool, redis: deps.redis });
  const routePlugins = [
    flowRoutes,
    followUpRoutes,
    leadRoutes,
    diagnosticRoutes,
    functionRoutes,
    publicConfigRoutes,
    authRoutes,
    adminArea,
    paymentRoutes,
    contactRoutes,
    reportRoutes,
    mirrorRoutes,
    clientLogRoutes,
    visitRoutes,
    slackRoutes,
    schedulingRoutes,
  ];
  for (const routes of routePlugins) {
    await app.register(routes, routeDeps);
  }
  await app.register(contactFormRoutes, { ...routeDeps, pages: site.rendered });
  await app.register(flowSocket, routeDeps);
  return app;
}
