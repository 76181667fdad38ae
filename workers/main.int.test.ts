import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTs } from '#test/processes.js';
import { testEnv } from '#test/helpers.js';

describe('workers/main.ts as a process', () => {
  it('connects, reports ready and stops on SIGTERM with exit 0 within 10 s', async () => {
    const tmpDir = mkdtempSync(path.join(tmpdir(), 'hf-worker-'));
    const worker = runTs('workers/main.ts', testEnv({ LOG_LEVEL: 'info', TMPDIR: tmpDir }));
    await worker.waitFor('worker ready');
    // the docker-compose health check reads this heartbeat (written once PostgreSQL has answered too)
    const file = path.join(tmpDir, 'hf-worker-heartbeat');
    await expect.poll(() => existsSync(file)).toBe(true);
    const beat = Number(readFileSync(file, 'utf8'));
    expect(Date.now() - beat).toBeLessThan(10_000);
    const sentAt = Date.now();
    worker.child.kill('SIGTERM');
    const stopped = await worker.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.at - sentAt).toBeLessThan(10_000);
  });

  it('exits non-zero naming the variable when the configuration is bad', async () => {
    const worker = runTs('workers/main.ts', testEnv({ WORKER_CONCURRENCY: 'lots' }));
    expect((await worker.exited).code).toBe(1);
    expect(worker.output()).toContain('WORKER_CONCURRENCY: expected a number');
  });
});
