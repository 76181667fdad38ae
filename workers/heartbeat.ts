import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';

/** The file docker-compose's worker health check reads; its age says whether the worker is alive and connected. */
const HEARTBEAT_FILE = path.join(tmpdir(), 'hf-worker-heartbeat');

/** Touches HEARTBEAT_FILE every 10 s while Redis is connected; returns a function that stops it. */
export function startHeartbeat(redis: Redis, file = HEARTBEAT_FILE): () => void {
  const beat = () => {
    if (redis.status === 'ready') writeFileSync(file, String(Date.now()));
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
