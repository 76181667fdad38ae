import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import type { Config } from '#core/config/index.js';
import { insertJob } from '#core/queues/outbox.js';
import { QUEUE_NAMES } from '#core/queues/names.js';

/* A database and queue prefix of its own: the summary counts the whole jobs table and the retry runs a relay. */

let app: FastifyInstance;
let pool: pg.Pool;
let config: Config;
let headers: Record<string, string>;
let harness: TestApp;

function asAdmin(options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, ...headers } });
}

async function insertRow(
  queue: string,
  status: string,
  fields: { attempts?: number; lastError?: string; createdAt?: string } = {},
): Promise<string> {
  const inserted = await pool.query<{ id: string }>(
    `INSERT INTO jobs (queue, name, status, attempts, max_attempts, last_error, created_at, finished_at)
     VALUES ($1, 'test-job', $2, $3, 3, $4, coalesce($5::timestamptz, now()), CASE WHEN $2 IN ('completed', 'failed') THEN now() END)
     RETURNING id`,
    [queue, status, fields.attempts ?? 0, fields.lastError ?? null, fields.createdAt ?? null],
  );
  return inserted.rows[0]!.id;
}

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool, config } = harness);
  ({ headers } = await signedInAdmin(pool));
});

afterAll(() => harness?.close());

describe('admin jobs API', () => {
  it('refuses a visitor without an admin session (401) and a signed-in user who is not an admin (403)', async () => {
    const unsafe: Array<{ method: 'POST' | 'DELETE'; url: string; payload?: object }> = [
      { method: 'POST', url: `/api/admin/jobs/${randomUUID()}/retry` },
      { method: 'POST', url: '/api/admin/jobs/retry-failed', payload: {} },
      { method: 'DELETE', url: `/api/admin/jobs/${randomUUID()}` },
    ];
    for (const url of ['/api/admin/jobs/summary', '/api/admin/jobs', '/api/admin/machines']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    for (const request of unsafe) expect((await app.inject(request)).statusCode, request.url).toBe(401);

    // only the admin role exists today; a second one (in this file's own database) shows the guard refuses any other
    await pool.query('ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check');
    const { headers: memberHeaders } = await signedInAdmin(pool, { role: 'member' });
    for (const request of [{ method: 'GET' as const, url: '/api/admin/jobs' }, ...unsafe]) {
      const response = await app.inject({ ...request, headers: memberHeaders });
      expect(response.statusCode, request.url).toBe(403);
      expect(response.json().message).toBe('This needs an admin account.');
    }
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
    const { app: offline, close } = await buildTestApp({ config: { ...config, REDIS_URL: 'redis://127.0.0.1:1' }, sharing: { pool } });
    try {
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
      await close();
    }
  });

  it('lists job rows filtered by queue and status, 25 per page, newest first', async () => {
    await pool.query('DELETE FROM jobs');
    for (let n = 0; n < 30; n++)
      await insertRow('homework', 'failed', { lastError: `boom ${n}`, createdAt: new Date(Date.now() - n * 1000).toISOString() });
    await insertRow('homework', 'completed');
    await insertRow('email', 'failed');

    const first = (await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=homework&status=failed' })).json();
    expect(first.total).toBe(30);
    expect(first.pageSize).toBe(25);
    expect(first.jobs).toHaveLength(25);
    expect(first.jobs[0]).toMatchObject({
      queue: 'homework',
      status: 'failed',
      last_error: 'boom 0',
      attempts: 0,
      max_attempts: 3,
      lead_id: null,
      payload: {},
    });
    const withData = await insertJob(
      pool,
      { queue: 'email', name: 'contact_confirmation', payload: { emailId: 'a-row-id' } },
      { direct: true },
    );
    const listed = (await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=email' })).json();
    expect(listed.jobs.find((job: { id: string }) => job.id === withData).payload).toEqual({ emailId: 'a-row-id' });
    await pool.query('DELETE FROM jobs WHERE id = $1', [withData]);
    const second = (await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=homework&status=failed&page=2' })).json();
    expect(second.jobs.map((job: { last_error: string }) => job.last_error)).toEqual([
      'boom 25',
      'boom 26',
      'boom 27',
      'boom 28',
      'boom 29',
    ]);

    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=homework' })).json().total).toBe(31);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?status=failed' })).json().total).toBe(31);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs' })).json().total).toBe(32);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?queue=nope' })).statusCode).toBe(400);
    expect((await asAdmin({ method: 'GET', url: '/api/admin/jobs?page=0' })).statusCode).toBe(400);
  });

  it('retries a failed job: it runs again exactly once and completes', async () => {
    let failing = true;
    let calls = 0;
    const { queues, relay } = await buildTestWorker(harness, {
      queues: ['email'],
      processors: {
        email: {
          process: () => {
            calls += 1;
            return failing ? Promise.reject(new UnrecoverableError('smtp refused')) : Promise.resolve({ sent: true });
          },
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
    // a relay sweep after it must not run it a second time: a job the sweep added would be in
    // BullMQ now, waiting or running, or have run
    await relay.sweep();
    expect(await queues.email.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 });
    expect(calls).toBe(2);
    const row = (await pool.query('SELECT status, attempts, result, last_error FROM jobs WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ status: 'completed', attempts: 1, result: { sent: true }, last_error: null });
    expect(await queues.email.getJobState(id)).toBe('completed');

    // now it is not failed any more
    const again = await asAdmin({ method: 'POST', url: `/api/admin/jobs/${id}/retry` });
    expect(again.statusCode).toBe(409);
  });

  it('retries an unfinished job whose BullMQ job is failed or gone, but not one still on its way', async () => {
    const { queues } = await buildTestWorker(harness, {
      queues: ['email'],
      processors: { email: { process: () => Promise.resolve({ sent: true }) } },
      relay: { sweepMs: 60_000 },
    });
    // the table says active, but Redis no longer has the job (lost, or the row was never relayed)
    const gone = await insertRow('email', 'active', { attempts: 1 });
    const retried = await asAdmin({ method: 'POST', url: `/api/admin/jobs/${gone}/retry` });
    expect(retried.statusCode, retried.body).toBe(200);
    await until(async () => (await pool.query('SELECT status FROM jobs WHERE id = $1', [gone])).rows[0].status === 'completed');

    // the table says enqueued, and BullMQ holds a waiting copy: it is on its way, not stuck
    await queues.email.pause();
    const waiting = await insertRow('email', 'enqueued');
    await queues.email.add('test-job', { jobRowId: waiting, payload: {} }, { jobId: waiting });
    const refused = await asAdmin({ method: 'POST', url: `/api/admin/jobs/${waiting}/retry` });
    expect(refused.statusCode).toBe(409);
    await queues.email.resume();
  });

  it('answers 409 for a job that is not failed and 404 for none', async () => {
    const pending = await insertRow('slack', 'completed');
    const response = await asAdmin({ method: 'POST', url: `/api/admin/jobs/${pending}/retry` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/completed/);
    expect((await pool.query('SELECT status FROM jobs WHERE id = $1', [pending])).rows[0].status).toBe('completed');
    expect((await asAdmin({ method: 'POST', url: `/api/admin/jobs/${randomUUID()}/retry` })).statusCode).toBe(404);
  });

  it('refuses a retry, a retry of all failed jobs and a removal without the CSRF header', async () => {
    const failed = await insertRow('slack', 'failed');
    const cookieOnly = { cookie: headers.cookie! };
    expect((await app.inject({ method: 'POST', url: `/api/admin/jobs/${failed}/retry`, headers: cookieOnly })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/admin/jobs/retry-failed', headers: cookieOnly, payload: {} })).statusCode).toBe(
      403,
    );
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/jobs/${failed}`, headers: cookieOnly })).statusCode).toBe(403);
    expect((await pool.query('SELECT status FROM jobs WHERE id = $1', [failed])).rows[0].status).toBe('failed');
  });

  it("retries every failed job of one queue, then of all queues, clearing BullMQ's failed copies", async () => {
    await pool.query('DELETE FROM jobs');
    let failing = true;
    const ran: string[] = [];
    const { queues } = await buildTestWorker(harness, {
      queues: ['email'],
      processors: {
        email: {
          process: (job) => {
            ran.push(job.data.jobRowId);
            return failing ? Promise.reject(new UnrecoverableError('smtp refused')) : Promise.resolve({ sent: true });
          },
        },
      },
    });
    const emails = [
      await insertJob(pool, { queue: 'email', name: 'retry-all-1', payload: {}, maxAttempts: 1 }),
      await insertJob(pool, { queue: 'email', name: 'retry-all-2', payload: {}, maxAttempts: 1 }),
    ];
    const statuses = async (ids: string[]) =>
      (await pool.query<{ status: string }>('SELECT status FROM jobs WHERE id = ANY($1)', [ids])).rows.map((row) => row.status);
    await until(async () => (await statuses(emails)).join() === 'failed,failed');
    for (const id of emails) expect(await queues.email.getJobState(id)).toBe('failed');
    // no worker serves the webhooks queue here, so its retried row stays queued for us to see
    const webhook = await insertRow('webhooks', 'failed', { attempts: 3, lastError: 'receiver answered 500' });
    const completed = await insertRow('email', 'completed');

    failing = false;
    const one = await asAdmin({ method: 'POST', url: '/api/admin/jobs/retry-failed', payload: { queue: 'email' } });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({ retried: 2 });
    await until(async () => (await statuses(emails)).join() === 'completed,completed');
    expect(ran.filter((id) => emails.includes(id))).toHaveLength(4);
    for (const id of emails) expect(await queues.email.getJobState(id)).toBe('completed');
    expect((await pool.query('SELECT status FROM jobs WHERE id = $1', [webhook])).rows[0].status).toBe('failed');

    const all = await asAdmin({ method: 'POST', url: '/api/admin/jobs/retry-failed' });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({ retried: 1 });
    const row = (await pool.query('SELECT status, attempts, last_error FROM jobs WHERE id = $1', [webhook])).rows[0];
    expect(['pending', 'enqueued']).toContain(row.status);
    expect(row).toMatchObject({ attempts: 0, last_error: null });
    expect((await pool.query('SELECT status FROM jobs WHERE id = $1', [completed])).rows[0].status).toBe('completed');
    // nothing failed is left
    expect((await asAdmin({ method: 'POST', url: '/api/admin/jobs/retry-failed', payload: {} })).json()).toEqual({ retried: 0 });
  });

  it('refuses a retry of all failed jobs with a bad body, naming the field', async () => {
    const badQueue = await asAdmin({ method: 'POST', url: '/api/admin/jobs/retry-failed', payload: { queue: 'nope' } });
    expect(badQueue.statusCode).toBe(400);
    expect(badQueue.json().fields).toHaveProperty('queue');
    const extra = await asAdmin({ method: 'POST', url: '/api/admin/jobs/retry-failed', payload: { queue: 'email', everything: true } });
    expect(extra.statusCode).toBe(400);
    expect(extra.body).toMatch(/everything/);
  });

  it('removes a waiting job from BullMQ and the jobs table for good, and a failed one with its copy', async () => {
    const { queues, relay } = await buildTestWorker(harness, {
      queues: ['email'],
      processors: {
        email: {
          process: () => Promise.reject(new UnrecoverableError('smtp refused')),
        },
      },
    });
    // the webhooks queue has no worker here: its job waits in BullMQ
    const waiting = await insertJob(pool, { queue: 'webhooks', name: 'remove-me', payload: {} });
    await until(async () => (await queues.webhooks.getJobState(waiting)) === 'waiting');
    const response = await asAdmin({ method: 'DELETE', url: `/api/admin/jobs/${waiting}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: waiting, queue: 'webhooks', name: 'remove-me' });
    expect((await pool.query('SELECT 1 FROM jobs WHERE id = $1', [waiting])).rowCount).toBe(0);
    expect(await queues.webhooks.getJob(waiting)).toBeUndefined();
    // a relay sweep after it does not bring it back
    await relay.sweep();
    expect(await queues.webhooks.getJob(waiting)).toBeUndefined();
    expect((await asAdmin({ method: 'DELETE', url: `/api/admin/jobs/${waiting}` })).statusCode).toBe(404);

    const failed = await insertJob(pool, { queue: 'email', name: 'remove-failed', payload: {}, maxAttempts: 1 });
    await until(async () => (await queues.email.getJobState(failed)) === 'failed');
    expect((await asAdmin({ method: 'DELETE', url: `/api/admin/jobs/${failed}` })).statusCode).toBe(200);
    expect(await queues.email.getJob(failed)).toBeUndefined();
    expect((await pool.query('SELECT 1 FROM jobs WHERE id = $1', [failed])).rowCount).toBe(0);

    expect((await asAdmin({ method: 'DELETE', url: '/api/admin/jobs/not-a-uuid' })).statusCode).toBe(400);
  });

  it('answers 409 to removing a job while it runs, and leaves it to finish', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { queues } = await buildTestWorker(harness, {
      queues: ['email'],
      processors: { email: { process: async () => (await released, { sent: true }) } },
    });
    const id = await insertJob(pool, { queue: 'email', name: 'busy', payload: {} });
    await until(async () => (await pool.query('SELECT status FROM jobs WHERE id = $1', [id])).rows[0].status === 'active');
    const response = await asAdmin({ method: 'DELETE', url: `/api/admin/jobs/${id}` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This job is running now and cannot be removed; wait for it to finish or fail, then remove it.');
    expect(await queues.email.getJobState(id)).toBe('active');
    release();
    await until(async () => (await pool.query('SELECT status FROM jobs WHERE id = $1', [id])).rows[0].status === 'completed');
  });
});

describe('admin machines API', () => {
  it("lists each flow machine's states and transitions with live counts and events per minute", async () => {
    await pool.query('DELETE FROM flows');
    const insertFlow = async (machine: string, state: string) =>
      (
        await pool.query<{ id: string }>("INSERT INTO flows (machine, state, snapshot) VALUES ($1, $2, '{}') RETURNING id", [
          machine,
          state,
        ])
      ).rows[0]!.id;
    const grading = await insertFlow('assessmentFlow', 'processing.grading');
    await insertFlow('assessmentFlow', 'processing.grading');
    await insertFlow('assessmentFlow', 'results');
    await insertFlow('assessmentFlow', 'retired.state');
    await insertFlow('diagnostic', 'question');
    for (let seq = 1; seq <= 3; seq++) {
      await pool.query(
        "INSERT INTO flow_events (flow_id, seq, type, origin, state_after) VALUES ($1, $2, 'PING', 'server', 'processing.grading')",
        [grading, seq],
      );
    }

    const response = await asAdmin({ method: 'GET', url: '/api/admin/machines' });
    expect(response.statusCode, response.body).toBe(200);
    const { machines } = response.json();
    expect(machines.map((m: { name: string }) => m.name)).toEqual(['assessmentFlow', 'diagnostic', 'mirror']);
    const flow = machines[0];
    const paths = flow.states.map((s: { path: string }) => s.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'opening',
        'capture',
        'capture.editing',
        'capture.saving',
        'diagnostic',
        'processing',
        'processing.grading',
        'results',
        'payment',
      ]),
    );
    const state = (path: string) => flow.states.find((s: { path: string }) => s.path === path);
    expect(state('processing.grading').count).toBe(2);
    expect(state('processing').count).toBe(2);
    expect(state('processing')).toMatchObject({ type: 'compound', initial: 'processing.grading' });
    expect(state('results').count).toBe(1);
    expect(state('capture.editing').count).toBe(0);
    expect(state('capture.editing').transitions).toContainEqual({
      event: 'CAPTURE_SUBMIT',
      target: 'capture.saving',
      guard: 'hasNameAndEmail',
    });
    expect(state('opening').transient).toBe(true);
    expect(flow.unknown).toEqual([{ state: 'retired.state', count: 1 }]);
    expect(flow.totalFlows).toBe(4);
    expect(flow.eventsPerMinute).toHaveLength(60);
    expect(flow.eventsPerMinute.at(-1)).toBe(3);
    expect(machines[1].totalFlows).toBe(1);
  });
});
