import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import WebSocket from 'ws';
import { SURVEYS } from '#test/journey.js';
import { NODE_BUNDLE } from '../../lib/ensure.mjs';
import { spawnBundle, stopChild, waitForReady } from '../../services/child.js';
import { loadAgent, rawRequest } from '../raw-request.js';
import { measure, type RunStats } from '../stats.js';
import type { BarePush } from './names.js';

/**
 * Bundles the bare server and worker into dist/bench/ the way ensureServerBuilt bundles the
 * product's (dependencies external, plain Node at run time), so neither side of b/c pays for
 * compiling TypeScript on the fly, then starts them with `env`: the product's settings with a
 * queue prefix and a port of their own. The worker starts once the server has made the tables.
 */
export async function startBareProcesses(
  env: NodeJS.ProcessEnv,
): Promise<{ server: ChildProcess; worker: ChildProcess; stop: () => Promise<unknown> }> {
  await build({
    ...NODE_BUNDLE,
    entryPoints: {
      'bare-server': fileURLToPath(new URL('./server.ts', import.meta.url)),
      'bare-worker': fileURLToPath(new URL('./worker.ts', import.meta.url)),
    },
    outdir: 'dist/bench',
  });
  const server = spawnBundle('dist/bench/bare-server.mjs', env);
  const stopServer = () => stopChild(server, 10_000);
  try {
    await waitForReady(server, 'bare server');
  } catch (error) {
    await stopServer();
    throw error;
  }
  const worker = spawnBundle('dist/bench/bare-worker.mjs', env);
  const stop = () => Promise.all([stopChild(worker, 10_000), stopServer()]);
  try {
    await waitForReady(worker, 'bare worker');
  } catch (error) {
    await stop();
    throw error;
  }
  return { server, worker, stop };
}

/**
 * (c) One bare flow as (b) times it: a socket of its own, subscribed before anything is timed; then
 * from the POST to its push arriving on that socket.
 */
export async function bareFlows(base: string, label: string, count: number, concurrency: number, first = 0): Promise<RunStats> {
  const agent = loadAgent(concurrency);
  const run = await measure(label, count, concurrency, async (index) => {
    const requestId = `bare-${first + index}`;
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
    try {
      let waiter: ((frame: { type: string; requestId: string }) => void) | null = null;
      socket.on('message', (raw: Buffer) => waiter?.(JSON.parse(raw.toString()) as BarePush | { type: 'subscribed'; requestId: string }));
      await new Promise<void>((resolve, reject) => socket.once('open', () => resolve()).once('error', reject));
      const when = (type: string) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no ${type} push for ${requestId} within 60 s`)), 60_000);
          waiter = (frame) => {
            if (frame.type !== type || frame.requestId !== requestId) return;
            clearTimeout(timer);
            resolve();
          };
        });
      const subscribed = when('subscribed');
      socket.send(JSON.stringify({ subscribe: requestId }));
      await subscribed;
      const graded = when('graded');
      const started = performance.now();
      const response = await rawRequest(`${base}/events`, {
        agent,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requestId, answers: SURVEYS.book_call }),
      });
      if (response.status !== 200) throw new Error(`bare POST for ${requestId}: ${response.status} ${response.body.toString()}`);
      await graded;
      return performance.now() - started;
    } finally {
      socket.close();
    }
  });
  agent.destroy();
  return run;
}
