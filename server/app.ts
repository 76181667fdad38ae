import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Config } from './config/index.js';
import { loggerOptions } from './logger.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { openApi } from './plugins/openapi.js';
import { staticSite } from './plugins/static-site.js';
import { websocketEndpoint } from './plugins/websocket.js';
import { flowRoutes } from './routes/flows.js';
import { healthRoutes } from './routes/health.js';

export interface AppDeps {
  config: Config;
  pool: pg.Pool;
  redis: Redis;
  /** Overrides the logger (tests pass false to keep output quiet). */
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built web app; defaults to web/dist. */
  webRoot?: string;
}

/** Builds the whole HTTP + websocket application without listening (tests inject requests into it). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(deps.config, 'server'),
    trustProxy: deps.config.NODE_ENV === 'production',
    bodyLimit: 256 * 1024,
    // keep-alive sockets must not hold a shutdown open
    forceCloseConnections: 'idle',
  });
  registerErrorHandler(app);
  // root-level on purpose: validator and serializer compilers apply only to their own context
  await openApi(app);
  await app.register(healthRoutes, { pool: deps.pool, redis: deps.redis });
  await app.register(flowRoutes, { pool: deps.pool });
  await app.register(websocketEndpoint);
  await app.register(staticSite, { root: deps.webRoot });
  return app;
}
