import { Redis, type RedisOptions } from 'ioredis';

/**
 * Producers (the HTTP server) fail fast while Redis is down so a request answers instead of
 * hanging; workers (BullMQ's blocking connections) wait and retry forever.
 */
export function createRedis(url: string, role: 'producer' | 'worker', extra: RedisOptions = {}): Redis {
  const options: RedisOptions =
    role === 'producer' ? { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 } : { maxRetriesPerRequest: null };
  const redis = new Redis(url, { ...options, ...extra });
  // Connection errors are retried by ioredis and surface through readiness checks; an unhandled
  // 'error' event would crash the process instead.
  redis.on('error', () => {});
  return redis;
}
