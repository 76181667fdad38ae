import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type pg from 'pg';

/** The file docker-compose's worker health check reads; its age says whether the worker can work. */
const HEARTBEAT_FILE = path.join(tmpdir(), 'hf-worker-heartbeat');

/**
 * Touches HEARTBEAT_FILE every 10 s while the worker is ready to work: Redis connected and
 * PostgreSQL answering (a job needs both). A stale file is what makes an orchestrator restart it.
 * Returns a function that stops it.
 */
export function startHeartbeat(redis: Redis, pool: pg.Pool, file = HEARTBEAT_FILE): () => void {
  const beat = () => {
    if (redis.status !== 'ready') return;
    pool.query('SELECT 1').then(
      () => writeFileSync(file, String(Date.now())),
      () => {},
    );
  };
  beat();
  redis.on('ready', beat);
  const timer = setInterval(beat, 10_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    redis.off('ready', beat);
  };
}
