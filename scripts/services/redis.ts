import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './free-port.js';
import type { RunningService } from './postgres.js';

export const NO_REDIS_MESSAGE =
  'Redis is needed and none was found: install it (Debian/Ubuntu: `sudo apt-get install redis-server`, macOS: `brew install redis`), or run `docker compose up -d redis`, or set REDIS_URL.';

export class RedisUnavailableError extends Error {
  constructor() {
    super(NO_REDIS_MESSAGE);
    this.name = 'RedisUnavailableError';
  }
}

/** True when a Redis answers PING at host:port within the timeout. */
export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

/** Finds an executable on PATH, as a shell would. */
export function findOnPath(name: string, pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

/** A redis-server left running by a run that was killed: stop it, or it would keep its files open. */
function stopLeftover(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/**
 * Spawns redis-server from PATH on a free loopback port (or `port`, to start one again where it
 * was), with AOF persistence in `dataDir` and noeviction (BullMQ must never lose keys to memory
 * pressure).
 */
export async function spawnRedis(
  dataDir: string,
  pathVariable = process.env.PATH,
  options: { port?: number } = {},
): Promise<RunningService & { port: number; kill: () => Promise<void> }> {
  const redisServer = findOnPath('redis-server', pathVariable);
  if (!redisServer) throw new RedisUnavailableError();
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'redis.pid');
  stopLeftover(pidFile);
  const port = options.port ?? (await freePort());
  const child = spawn(
    redisServer,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--pidfile',
      pidFile,
      '--logfile',
      path.join(dir, 'redis.log'),
      '--daemonize',
      'no',
    ],
    { detached: true, stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let waited = 0; !(await redisAnswers('127.0.0.1', port)); waited += 100) {
    if (child.exitCode !== null || waited > 10_000) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start; see ${path.join(dir, 'redis.log')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    /** SIGKILL, as a crash or an out-of-memory kill would end it. */
    kill: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * REDIS_URL when set; else a Redis already answering on 127.0.0.1:6379; else one spawned from PATH.
 * Returns `stop` only for a Redis this process started.
 */
export async function resolveRedis(redisUrl: string | undefined, dataDir: string): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (redisUrl) return { url: redisUrl };
  if (await redisAnswers('127.0.0.1', 6379)) return { url: 'redis://127.0.0.1:6379' };
  return spawnRedis(dataDir);
}
