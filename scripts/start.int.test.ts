import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { inject } from 'vitest';
import { ROOT } from './services/child.js';
import { freePort } from './services/free-port.js';
import { scratchDatabase } from '#test/helpers.js';
import { until } from '#test/until.js';

/*
 * `NODE_ENV=production npm start` on a fresh clone of this commit: npm ci must still install the
 * build tools (dev dependencies), then build the site and the bundles, and the site must come up.
 */
describe('npm start on a fresh clone', () => {
  it('works with NODE_ENV=production', { timeout: 420_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hf-fresh-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const clone = spawnSync('git', ['clone', '--quiet', '--depth', '1', `file://${ROOT}`, dir], { encoding: 'utf8' });
    expect(clone.status, clone.stderr).toBe(0);

    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, '.data'),
      DATABASE_URL: await scratchDatabase({ migrated: false }),
      REDIS_URL: inject('redisUrl'),
      QUEUE_PREFIX: `${inject('queuePrefix')}-fresh`,
      LOG_LEVEL: 'warn',
    };
    const start = spawn(process.execPath, ['scripts/start.mjs'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    start.stdout.on('data', (chunk) => (output += chunk));
    start.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
    onTestFinished(() => {
      if (start.exitCode === null) process.kill(-start.pid!, 'SIGKILL');
    });

    await until(() => output.includes('Site ready') || start.exitCode !== null, 400_000, output);
    expect(output, output).toContain(`Site ready: open http://localhost:${port}`);
    expect(output).toContain('Installing dependencies (npm ci)');
    expect(output).toContain('Building the web app (vite build)');
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const home = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');

    process.kill(-start.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
  });
});
