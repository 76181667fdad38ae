import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from './services/free-port.js';
import { runTs } from '#test/processes.js';
import { scratchDatabase, testEnv } from '#test/helpers.js';

async function expectCleanStop(run: ReturnType<typeof runTs>) {
  const sentAt = Date.now();
  run.child.kill('SIGTERM');
  const stopped = await run.exited;
  expect(stopped.code).toBe(0);
  expect(stopped.at - sentAt).toBeLessThan(10_000);
}

describe('the npm start supervisor', () => {
  it('runs server and worker against configured services and stops them all on SIGTERM', async () => {
    const port = await freePort();
    const run = runTs(
      'scripts/supervise.ts',
      testEnv({ DATABASE_URL: await scratchDatabase({ migrated: false }), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    );
    await run.waitFor(`Site ready: open http://localhost:${port}`);
    // the worker's ready message (IPC) and its log line (stdout pipe) reach the supervisor on separate channels, in either order
    await run.waitFor('worker ready', 5_000);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    await expectCleanStop(run);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it('restarts a killed worker with backoff, and stops everything, with a clear line, when it keeps crashing', async () => {
    const port = await freePort();
    const run = runTs(
      'scripts/supervise.ts',
      testEnv({ DATABASE_URL: await scratchDatabase({ migrated: false }), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
    );
    await run.waitFor(`Site ready: open http://localhost:${port}`);
    const workerPids = () => [...run.output().matchAll(/The worker is running \(pid (\d+)\)\./g)].map((match) => Number(match[1]));

    process.kill(workerPids()[0]!, 'SIGKILL');
    await run.waitFor('The worker stopped unexpectedly (SIGKILL); restarting it in 0.5 s.');
    await expect.poll(() => workerPids().length, { timeout: 30_000 }).toBe(2);
    expect(workerPids()[1]).not.toBe(workerPids()[0]);
    // the site never went away, and the supervisor still runs
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect(run.child.exitCode).toBeNull();

    // a crash loop: the fifth crash within a minute stops everything
    for (let crash = 2; crash <= 5; crash++) {
      await expect.poll(() => workerPids().length, { timeout: 30_000 }).toBe(crash);
      process.kill(workerPids()[crash - 1]!, 'SIGKILL');
    }
    const stopped = await run.exited;
    expect(stopped.code).toBe(1);
    expect(run.output()).toContain('The worker stopped 5 times within 60 s (last: SIGKILL); stopping everything.');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it('starts an embedded PostgreSQL (as a non-root user when run as root) when DATABASE_URL is unset, and stops it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hf-supervise-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const env = testEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, REDIS_URL: inject('redisUrl') });
    delete env.DATABASE_URL;
    const run = runTs('scripts/supervise.ts', env);
    await run.waitFor(`Site ready: open http://localhost:${port}`, 120_000);
    expect(run.output()).toContain(`Starting the embedded PostgreSQL (data in ${path.join(dataDir, 'postgres')})`);
    expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toMatchObject({ status: 'ok' });
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);
    await expectCleanStop(run);
    // a clean PostgreSQL shutdown removes its pid file
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
  });
});

describe.runIf(process.getuid?.() === 0)('embedded PostgreSQL as root', () => {
  it('explains in one line when the postgres user cannot reach the data folder', async () => {
    const locked = mkdtempSync(path.join(tmpdir(), 'hf-locked-')); // mkdtemp makes it 0700
    const env = testEnv({ PORT: String(await freePort()), DATA_DIR: path.join(locked, 'data'), REDIS_URL: inject('redisUrl') });
    delete env.DATABASE_URL;
    const run = runTs('scripts/supervise.ts', env);
    expect((await run.exited).code).toBe(1);
    expect(run.output()).toContain(`Embedded PostgreSQL runs as the 'postgres' user, which cannot enter ${locked}.`);
  });
});
