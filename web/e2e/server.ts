import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { createPool } from '../../server/db/pool.js';
import { createRedis } from '../../server/redis.js';
import { testConfig } from '../../test/helpers.js';

/** The real app, listening on a free loopback port, against this run's database and Redis. */
export async function startTestServer(): Promise<{ url: string; app: FastifyInstance; close: () => Promise<void> }> {
  const config = testConfig();
  const pool = createPool(config.DATABASE_URL!, 4);
  const redis = createRedis(config.REDIS_URL!, 'producer');
  const app = await buildApp({ config, pool, redis, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    close: async () => {
      await app.close();
      await pool.end();
      redis.disconnect();
    },
  };
}
