import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function check(probe: () => Promise<unknown>, what: string): Promise<'ok' | 'down'> {
  try {
    await withTimeout(probe(), what);
    return 'ok';
  } catch {
    return 'down';
  }
}

/** PING, first waiting (within the check's timeout) for a connection that is still being made. */
async function pingRedis(redis: Redis): Promise<unknown> {
  if (redis.status !== 'ready') {
    await new Promise<void>((resolve, reject) => {
      redis.once('ready', resolve);
      setTimeout(() => {
        redis.off('ready', resolve);
        reject(new Error('redis not connected'));
      }, CHECK_TIMEOUT_MS).unref();
    });
  }
  return redis.ping();
}

/** GET /healthz (the process is up) and GET /readyz (PostgreSQL and Redis both answer). */
export function healthRoutes(app: FastifyInstance, deps: { pool: pg.Pool; redis: Redis }, done: () => void): void {
  app.get('/healthz', () => ({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) }));

  app.get('/readyz', async (_request, reply) => {
    const [postgres, redis] = await Promise.all([
      check(() => deps.pool.query('SELECT 1'), 'postgres'),
      check(() => pingRedis(deps.redis), 'redis'),
    ]);
    const down = Object.entries({ postgres, redis })
      .filter(([, state]) => state === 'down')
      .map(([name]) => name);
    if (down.length) {
      // a readiness probe's own shape (the checks, not an ErrorBody): load balancers and the supervisor read it
      return reply.status(503).send({
        status: 'unavailable',
        checks: { postgres, redis },
        message: `${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} not answering`,
      });
    }
    return { status: 'ok', checks: { postgres, redis } };
  });
  done();
}
