import { randomBytes, randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedConfig } from '../../test/helpers.js';
import { startWorkers, until } from '../../test/worker-harness.js';
import { buildApp } from '../app.js';
import { createAdmin } from '../auth/admin-users.js';
import { createSession, csrfTokenFor, SESSION_COOKIE } from '../auth/sessions.js';
import type { Config } from '../config/index.js';
import { createPool } from '../db/pool.js';
import { insertJob } from '../queues/outbox.js';
import { QUEUE_NAMES } from '../queues/names.js';
import { createRedis } from '../redis.js';

/* A database and queue prefix of its own: the summary counts the whole jobs table and the retry runs a relay. */

let app: FastifyInstance;
let pool: pg.Pool;
let config: Config;
let redis: ReturnType<typeof createRedis>;
let drop: (() => Promise<void>) | undefined;
let headers: Record<string, string>;

function asAdmin(options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, ...headers } });
}

async function insertRow(queue: string, status: string, fields: { attempts?: number; lastError?: string; createdAt?: string } = {}): Promise<string> {
  const inserted = await pool.query<{ id: string }>(
    `INSERT INTO jobs (queue, name, status, attempts, max_attempts, last_error, created_at, finished_at)
     VALUES ($1, 'test-job', $2, $3, 3, $4, coalesce($5::timestamptz, now()), CASE WHEN $2 IN ('completed', 'failed') THEN now() END)
     RETURNING id`,
    [queue, status, fields.attempts ?? 0, fields.lastError ?? null, fields.createdAt ?? null],
  );
  return inserted.rows[0]!.id;
}

beforeAll(async () => {
  const own = await isolatedConfig();
  drop = own.drop;
  config = own.config;
  pool = createPool(config.DATABASE_URL!, 6);
  redis = createRedis(config.REDIS_URL!, 'producer');
  app = await buildApp({ config, pool, redis, logger: false });
  await app.ready();
  const email = `ops-${randomBytes(5).toString('hex')}@example.com`;
  await createAdmin(pool, email, 'correct horse battery');
  const user = await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  const { token } = await createSession(pool, user.rows[0]!.id);
  headers = { cookie: `${SESSION_COOKIE}=${token}`, 'x-csrf-token': csrfTokenFor(token) };
});

afterAll(async () => {
  await app?.close();
  await pool?.end();
  redis?.disconnect();
  await drop?.();
});

describe('admin jobs API', () => {
  it('refuses a visitor without an admin session', async () => {
    for (const url of ['/api/admin/jobs/summary', '/api/admin/jobs', '/api/admin/machines']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'POST', url: `/api/admin/jobs/${randomUUID()}/retry` })).statusCode).toBe(401);
  });

  it('counts jobs per queue and status, every queue listed, with BullMQ live counts', async () => {
    await pool.query('DELETE FROM jobs');
    await insertRow('email', 'failed', { attempts: 3, lastError: 'smtp refused' });
    await insertRow('email', 'failed');
    await insertRow('email', 'completed');
    await insertRow('grading', 'completed');
    await insertRow('webhooks', 'enqueued');
    const response = await asAdmin({ method: 'GET', url: '/api/admin/jobs/summary' });
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json();
    expect(summary.redis).toBe('up');
    expect(summary.queues.map((q: { queue: string }) => q.queue)).toEqual([...QUEUE_NAMES]);
    const byQueue = Object.fromEntries(summary.queues.map((q: { queue: string }) => [q.queue, q]));
    expect(byQueue.email.counts).toEqual({ pending: 0, enqueued: 0, active: 0, completed: 1, failed: 2 });
    expect(byQueue.email.total).toBe(3);
    expect(byQueue.grading.counts.completed).toBe(1);
    expect(byQueue.webhooks.counts.enqueued).toBe(1);
    expect(byQueue.slack.total).toBe(0);
    expect(byQueue.timers.bull).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  it("answers the database's counts and redis: 'down' when Redis does not answer", async () => {
    const deadRedis = createRedis('redis://127.0.0.1:1', 'producer');
    const offline = await buildApp({ config, pool, redis: deadRedis, logger: false });
    try {
      await offline.ready();
      const response = await offline.inject({ method: 'GET', url: '/api/admin/jobs/summary', headers });
      expect(response.statusCode, response.body).toBe(200);
      const summary = response.json();
      expect(summary.redis).toBe('down');
      expect(summary.queues).toHaveLength(QUEUE_NAMES.length);
      expect(summary.queues.every((q: { bull: unknown }) => q.bull === null)).toBe(true);
      const total = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs')).rows[0]!.n;
      expect(summary.queues.reduce((sum: number, q: { total: number }) => sum + q.total, 0)).toBe(total);
      // a retry cannot clear BullMQ's copy, so the row stays failed
      const failed = await insertRow('slack', 'failed');
      const retry = await offline.inject({ method: 'POST', url: `/api/admin/jobs/${failed}/retry`, headers });
      expect(retry.statusCode).toBe(503);
      expect((await pool.query('SELECT status FROM jobs WHERE id = $1', [failed])).rows[0].status).toBe('failed');
    } finally {
      await offline.close();
      deadRedis.disconnect();
    }
  });

  it('lists job rows filtered by queue and status, 25 per page, newest first', async () => {
    await pool.query('DELETE FROM jobs');
    for (let n = 0; n < 30; n++) await insertRow('homework', 'failed', { lastError: `boom ${n}`, createdAt: new Date(Date.now() - n * 1000).toISOString() });
    await insertRow('homework', 'completed');
    await insertRow('email', 'failed');

    const first = (await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=homework&status=failed' })).json();
    expect(first.total).toBe(30);
    expect(first.pageSize).toBe(25);
    expect(first.jobs).toHaveLength(25);
    expect(first.jobs[0]).toMatchObject({ queue: 'homework', status: 'failed', last_error: 'boom 0', attempts: 0, max_attempts: 3, lead_id: null });
    const second = (await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=homework&status=failed&page=2' })).json();
    expect(second.jobs.map((job: { last_error: string }) => job.last_error)).toEqual(['boom 25', 'boom 26', 'boom 27', 'boom 28', 'boom 29']);

    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=homework' })).json().total).toBe(31);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?status=failed' })).json().total).toBe(31);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs' })).json().total).toBe(32);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=nope' })).statusCode).toBe(400);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?page=0' })).statusCode).toBe(400);
  });

  it('retries a failed job: it runs again exactly once and completes', async () => {
    let failing = true;
    let calls = 0;
    const { queues } = await startWorkers(pool, config, ['email'], {
      email: {
        process: async () => {
          calls += 1;
          if (failing) throw new UnrecoverableError('smtp refused');
          return { sent: true };
        },
      },
    });
    const id = await insertJob(pool, { queue: 'email', name: 'retry-me', payload: {}, maxAttempts: 1 });
    await until(async () => (await pool.query('SELECT status FROM jobs WHERE id = $1', [id])).rows[0].status === 'failed');
    expect(calls).toBe(1);
    expect(await queues.email.getJobState(id)).toBe('failed');

    failing = false;
    const response = await asAdmin({ method: 'POST', url: `/api/admin/jobs/${id}/retry` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id, attempts: 0, last_error: null, finished_at: null });
    expect(['pending', 'enqueued', 'active', 'completed']).toContain(response.json().status);

    await until(async () => (await pool.query('SELECT status FROM jobs WHERE id = $1', [id])).rows[0].status === 'completed');
    // a relay sweep (every 500 ms here) must not run it a second time
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls).toBe(2);
    const row = (await pool.query('SELECT status, attempts, result, last_error FROM jobs WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ status: 'completed', attempts: 1, result: { sent: true }, last_error: null });
    expect(await queues.email.getJobState(id)).toBe('completed');

    // now it is not failed any more
    const again = await asAdmin({ method: 'POST', url: `/api/admin/jobs/${id}/retry` });
    expect(again.statusCode).toBe(409);
  });

  it('answers 409 for a job that is not failed and 404 for none', async () => {
    const pending = await insertRow('slack', 'completed');
    const response = await asAdmin({ method: 'POST', url: `/api/admin/jobs/${pending}/retry` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/completed/);
    expect((await pool.query('SELECT status FROM jobs WHERE id = $1', [pending])).rows[0].status).toBe('completed');
    expect((await asAdmin({ method: 'POST', url: `/api/admin/jobs/${randomUUID()}/retry` })).statusCode).toBe(404);
  });

  it('refuses a retry without the CSRF header', async () => {
    const failed = await insertRow('slack', 'failed');
    const response = await app.inject({ method: 'POST', url: `/api/admin/jobs/${failed}/retry`, headers: { cookie: headers.cookie! } });
    expect(response.statusCode).toBe(403);
  });
});

describe('admin machines API', () => {
  it("lists each flow machine's states and transitions with live counts and events per minute", async () => {
    await pool.query('DELETE FROM flows');
    const insertFlow = async (machine: string, state: string) =>
      (await pool.query<{ id: string }>("INSERT INTO flows (machine, state, snapshot) VALUES ($1, $2, '{}') RETURNING id", [machine, state])).rows[0]!.id;
    const grading = await insertFlow('assessmentFlow', 'processing.grading');
    await insertFlow('assessmentFlow', 'processing.grading');
    await insertFlow('assessmentFlow', 'processing.revealing');
    await insertFlow('assessmentFlow', 'results');
    await insertFlow('assessmentFlow', 'retired.state');
    await insertFlow('diagnostic', 'question');
    for (let seq = 1; seq <= 3; seq++) {
      await pool.query("INSERT INTO flow_events (flow_id, seq, type, origin, state_after) VALUES ($1, $2, 'PING', 'server', 'processing.grading')", [grading, seq]);
    }

    const response = await asAdmin({ method: 'GET', url: '/api/admin/machines' });
    expect(response.statusCode, response.body).toBe(200);
    const { machines } = response.json();
    expect(machines.map((m: { name: string }) => m.name)).toEqual(['assessmentFlow', 'diagnostic', 'mirror']);
    const flow = machines[0];
    const paths = flow.states.map((s: { path: string }) => s.path);
    expect(paths).toEqual(expect.arrayContaining(['opening', 'capture', 'capture.editing', 'capture.saving', 'diagnostic', 'processing', 'processing.grading', 'results', 'payment']));
    const state = (path: string) => flow.states.find((s: { path: string }) => s.path === path);
    expect(state('processing.grading').count).toBe(2);
    expect(state('processing.revealing').count).toBe(1);
    expect(state('processing').count).toBe(3);
    expect(state('processing')).toMatchObject({ type: 'compound', initial: 'processing.grading' });
    expect(state('results').count).toBe(1);
    expect(state('capture.editing').count).toBe(0);
    expect(state('capture.editing').transitions).toContainEqual({ event: 'CAPTURE_SUBMIT', target: 'capture.saving', guard: 'hasNameAndEmail' });
    expect(state('opening').transient).toBe(true);
    expect(flow.unknown).toEqual([{ state: 'retired.state', count: 1 }]);
    expect(flow.totalFlows).toBe(5);
    expect(flow.eventsPerMinute).toHaveLength(60);
    expect(flow.eventsPerMinute.at(-1)).toBe(3);
    expect(machines[1].totalFlows).toBe(1);
  });
});
