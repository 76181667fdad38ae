import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_LIVE_PATH } from '#machines/protocol/admin-live.js';
import { spawnRedis } from '#scripts/services/redis.js';
import { signedInAdmin } from '#test/admin-session.js';
import { flowClient, openSocket } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { frameText } from './sockets/frames.js';
import { insertJob } from '#core/queues/outbox.js';
import { closeQueues, openQueues } from '#core/queues/queues.js';
import { createRedis } from '#core/redis.js';
import { MonitorHub, monitorPublisher } from '#core/slack/monitor-hub.js';

/*
 * Redis is SIGKILLed and started again on its port (as a crash and a supervisor's restart would
 * do), and every long-lived subscriber of the server comes back by itself: the flow pushes (a
 * visitor's socket), the admin's live feed (its flow frames and BullMQ's QueueEvents), and the
 * team-chat monitor's channel. Nothing is restarted by the test but Redis.
 */

let redisServer: Awaited<ReturnType<typeof spawnRedis>>;
let dir: string;
let base: string;
let prefix: string;
let harness: TestApp;
let pool: pg.Pool;
let redis: Redis;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'hf-redis-restart-'));
  redisServer = await spawnRedis(dir);
  harness = await buildTestApp({ ownDatabase: true, listen: true, env: { REDIS_URL: redisServer.url } });
  ({ pool, redis, url: base } = harness);
  prefix = harness.config.QUEUE_PREFIX;
});

afterAll(async () => {
  await harness?.close();
  await redisServer.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function restartRedis(): Promise<number> {
  await redisServer.kill();
  const downAt = Date.now();
  redisServer = await spawnRedis(dir, process.env.PATH, { port: redisServer.port });
  return downAt;
}

/** Retries `attempt` until it holds (Redis is back, clients are reconnecting) and says how long it took. */
async function within(ms: number, attempt: () => boolean | Promise<boolean>): Promise<number> {
  const started = Date.now();
  // an attempt that throws is one made before the clients have reconnected
  await until(
    () =>
      Promise.resolve()
        .then(attempt)
        .catch(() => false),
    ms,
    `not back within ${ms} ms`,
  );
  return Date.now() - started;
}

describe('after Redis is killed and started again', () => {
  it("the flow socket's pushes, the admin's live feed (flows and job events) and the monitor's channel all resume by themselves", async () => {
    const visitor = flowClient(base);
    // a Mirror flow takes SET_SAVE as often as it is sent: each one is a new event to push
    const flow = await visitor.start({ machine: 'mirror', mode: 'mirror' });
    const socket = await openSocket(base, visitor.cookie());
    await socket.subscribe(flow.flowId);

    const { headers } = await signedInAdmin(pool, { email: `restart-${Date.now()}@example.com` });
    const live = new WebSocket(`${base.replace(/^http/, 'ws')}${ADMIN_LIVE_PATH}`, { headers: { cookie: headers.cookie } });
    const liveFrames: Array<{ type: string; flowId?: string; jobId?: string; event?: string }> = [];
    live.on('message', (raw) => liveFrames.push(JSON.parse(frameText(raw))));
    await new Promise((resolve) => live.once('open', resolve));

    const monitorFrames: string[] = [];
    const hub = new MonitorHub(redis, prefix, () => {}, { warn: () => {} });
    hub.listen((frame) => monitorFrames.push(frame));
    const monitorProducer = createRedis(redisServer.url, 'worker');
    const publish = monitorPublisher(monitorProducer, prefix);
    const queues = openQueues(createRedis(redisServer.url, 'worker'), prefix);
    try {
      await within(5_000, () => liveFrames.some((f) => f.type === 'hello'));
      const downAt = await restartRedis();

      // a visitor's event, pushed to their socket again
      const pushedIn = await within(10_000, async () => {
        const sent = await visitor.call('POST', `/api/flows/${flow.flowId}/events`, { event: { type: 'SET_SAVE', save: true } });
        if (sent.status !== 200) return false;
        await socket.next((f) => f.type === 'event' && f.flowId === flow.flowId && f.version === sent.json.version, 1_000);
        return true;
      });
      await within(5_000, () => liveFrames.some((f) => f.type === 'flow' && f.flowId === flow.flowId));

      // BullMQ's events reach the admin's feed again
      const jobId = await insertJob(pool, { queue: 'email', name: 'after-restart', payload: {} });
      await queues.email.add('after-restart', { jobRowId: jobId, payload: {} }, { jobId });
      await within(10_000, () => liveFrames.some((f) => f.type === 'job' && f.jobId === jobId));

      // the monitor's channel again
      await within(10_000, async () => {
        await publish([{ type: 'error', error: 'after the restart' }]);
        return monitorFrames.some((frame) => frame.includes('after the restart'));
      });
      expect(Date.now() - downAt).toBeLessThan(20_000);
      expect(pushedIn).toBeLessThan(10_000);
    } finally {
      socket.close();
      live.close();
      hub.stop();
      monitorProducer.disconnect();
      await closeQueues(queues);
    }
  });
});
