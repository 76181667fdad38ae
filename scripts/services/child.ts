import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type ChildMessage = { type: 'ready'; [key: string]: unknown } | { type: 'error'; message: string };

/**
 * Starts a TypeScript entry point under Node with tsx, in its own process group (so a terminal's
 * Ctrl-C reaches only the supervisor, which then stops children in order) and with an IPC channel
 * (so a child notices when its parent dies and stops too).
 */
export function spawnTs(
  entry: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
  stdio: 'inherit' | 'pipe' = 'inherit',
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: [stdio === 'inherit' ? 'ignore' : 'pipe', stdio, stdio, 'ipc'],
  });
}

/**
 * How the server and the worker run under Node (decision 0032): a young generation of 2 x 8 MB
 * instead of V8's 2 x 16 MB, and an old generation let grow to 1.3x what the last full collection
 * kept instead of up to several times it; together about 25 MB less per process under load, at no
 * measured cost in CPU. The Dockerfile, docker compose and the systemd units in docs/operations.md pass the same.
 */
export const NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=30'];

/**
 * glibc's malloc keeps up to 8 arenas per core for the threads that allocate (libuv's pool, V8's
 * helpers), each holding freed memory of its own; two keep the server about 8 MB smaller under load
 * at no measured cost (decision 0056). Set the same in the Dockerfile and the systemd units.
 */
export const MALLOC_ARENAS = '2';

/** Starts a bundled entry point (dist/) under plain Node, with the same process group and IPC as spawnTs. */
export function spawnBundle(
  entry: string,
  env: NodeJS.ProcessEnv = process.env,
  stdio: 'inherit' | 'pipe' = 'inherit',
  nodeArgs: string[] = [],
): ChildProcess {
  // no --enable-source-maps: it holds every loaded module's map, about 30 MB per process (decision 0031);
  // NODE_OPTIONS=--enable-source-maps turns it on for a debugging session
  return spawn(process.execPath, [...NODE_FLAGS, ...nodeArgs, entry], {
    cwd: ROOT,
    env: { MALLOC_ARENA_MAX: MALLOC_ARENAS, ...env },
    detached: true,
    stdio: [stdio === 'inherit' ? 'ignore' : 'pipe', stdio, stdio, 'ipc'],
  });
}

/** Resolves with the child's ready message; rejects if it reports an error or exits first. */
export function waitForReady<T extends ChildMessage & { type: 'ready' }>(
  child: ChildProcess,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${what} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (message: ChildMessage) => {
      if (message?.type === 'ready') done(undefined, message as T);
      else if (message?.type === 'error') done(new Error(message.message));
    };
    const onExit = (code: number | null, signal: string | null) =>
      done(new Error(`${what} exited before it was ready (${signal ?? `code ${code}`})`));
    function done(error?: Error, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Sends SIGTERM and waits; SIGKILLs the whole group if it has not exited in time. Resolves with the exit code. */
export function stopChild(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}
