/** What the bare server, the bare worker and the bench client agree on, and nothing else. */
export const BARE_QUEUE = 'bare-hops';

/** The one channel every graded push goes through; each frame names the request it answers. */
export const pushChannel = (prefix: string) => `${prefix}:bare-pushes`;

/** The frame the worker publishes and the server forwards unchanged. */
export interface BarePush {
  type: 'graded';
  requestId: string;
  grade: string;
}

/** Reads the process settings the product's processes read, from the same variables. */
export function bareSettings(env: NodeJS.ProcessEnv) {
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  return {
    databaseUrl: required('DATABASE_URL'),
    redisUrl: required('REDIS_URL'),
    prefix: required('QUEUE_PREFIX'),
    poolMax: Number(env.PG_POOL_MAX ?? 10),
    workerConcurrency: Number(env.WORKER_CONCURRENCY ?? 5),
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 0),
  };
}
