/*
 * What `npm start` runs once dependencies and the web build are current: it provides PostgreSQL
 * and Redis when none are configured, starts one server and one worker process and keeps them
 * running (a crashed one is restarted with backoff; a crash loop stops everything), prints where to
 * open the site, and on Ctrl-C stops everything in order (server and worker first, so they drain
 * while their database and Redis still answer).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from '#core/config/index.js';
import { ensureServerBuilt } from './lib/ensure.mjs';
import { spawnBundle } from './services/child.js';
import { startEmbeddedPostgres } from './services/postgres.js';
import { RedisUnavailableError, resolveRedis } from './services/redis.js';
import { RestartingChild } from './services/restarting-child.js';

const config = loadConfigOrExit();
const dataDir = path.resolve(config.DATA_DIR);
mkdirSync(dataDir, { recursive: true, mode: 0o755 });

const stops: Array<() => Promise<void>> = [];
const children: RestartingChild[] = [];
let shuttingDown = false;

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function shutdown(code: number): Promise<never> {
  if (shuttingDown) return new Promise<never>(() => {});
  shuttingDown = true;
  await Promise.all(children.map((child) => child.stop(8_000)));
  await Promise.allSettled(stops.map((stop) => stop()));
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(0));

async function main(): Promise<void> {
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    say(`Starting the embedded PostgreSQL (data in ${path.join(dataDir, 'postgres')}) ...`);
    const postgres = await startEmbeddedPostgres(path.join(dataDir, 'postgres'));
    stops.push(postgres.stop);
    databaseUrl = postgres.url;
  }

  const redis = await resolveRedis(config.REDIS_URL, path.join(dataDir, 'redis'));
  if (redis.stop) {
    say(`Started redis-server (data in ${path.join(dataDir, 'redis')}).`);
    stops.push(redis.stop);
  }

  await ensureServerBuilt();
  const env = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
  // a crashed server or worker is started again (with backoff); only a crash loop stops everything
  const giveUp = (line: string) => {
    say(line);
    void shutdown(1);
  };
  for (const [name, entry] of [
    ['server', 'dist/server/main.mjs'],
    ['worker', 'dist/workers/main.mjs'],
  ] as const) {
    const child = new RestartingChild(name, () => spawnBundle(entry, env), say, giveUp);
    children.push(child);
    await child.start();
  }
  say(`\n  Site ready: open ${config.publicUrl}  (Ctrl-C stops everything)\n`);
}

main().catch(async (error: unknown) => {
  say(
    error instanceof RedisUnavailableError ? error.message : `Could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  await shutdown(1);
});
