import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import { pino } from 'pino';
import type pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPool } from '#core/db/pool.js';
import { inTransaction } from '#core/db/transaction.js';
import { FlowEngine } from '#core/flows/engine.js';
import { directEnqueuer } from '#core/queues/direct.js';
import { insertJob } from '#core/queues/outbox.js';
import { closeQueues, openQueues } from '#core/queues/queues.js';
import { OutboxRelay } from '#core/queues/relay.js';
import { createRedis } from '#core/redis.js';
import { spawnRedis } from '#scripts/services/redis.js';
import { scratchDatabase, testConfig } from '#test/helpers.js';
import { until } from '#test/until.js';
import type { QueueProcessor } from './processors/processor.js';
import { tracked } from './tracked.js';

const log = pino({ level: 'silent' });
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A private world per test: its own database, queue prefix, queues and relay. */
async function world() {
  const pool = createPool(await scratchDatabase(), 6);
  const connection = createRedis(testConfig().REDIS_URL!, 'worker');
  const prefix = `hf-test-outbox-${randomBytes(4).toString('hex')}`;
  const queues = openQueues(connection, prefix);
  cleanups.push(async () => {
    await Promise.all(Object.values(queues).map((queue) => queue.obliterate({ force: true })));
    await closeQueues(queues);
    await connection.quit();
    await pool.end();
  });
  const relay = (options = {}) => new OutboxRelay(pool, queues, log, options);
  const work = (processor: QueueProcessor['process'], options: Pick<QueueProcessor, 'claimsOnCompletion'> = {}) => {
    const context = { pool, log, config: testConfig(), engine: new FlowEngine(pool), publishMonitor: async () => {} };
    const worker = new Worker('email', tracked({ process: processor, ...options }, context), { connection, prefix, concurrency: 4 });
    cleanups.push(() => worker.close());
    return worker;
  };
  return { pool, queues, relay, work };
}

async function row(pool: pg.Pool, id: string) {
  return (await pool.query('SELECT status, attempts, result, last_error FROM jobs WHERE id = $1', [id])).rows[0];
}

/** Moves the rows' last change `ms` back, as if they had gone unchanged that long (past the trigger that stamps it). */
async function backdate(pool: pg.Pool, ids: string[], ms: number): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query('UPDATE jobs SET updated_at = updated_at - make_interval(secs => $2) WHERE id = ANY($1)', [ids, ms / 1000]);
  });
}

async function commitJob(pool: pg.Pool, payload: Record<string, unknown>, commit = true, direct = false): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const id = await insertJob(client, { queue: 'email', name: 'send', payload }, { direct });
    await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    return id;
  } finally {
    client.release();
  }
}

describe('the outbox relay and tracked jobs', () => {
  it('relays only committed rows, with the row id as the BullMQ job id, and records the result', async () => {
    const { pool, queues, relay, work } = await world();
    const seen: string[] = [];
    work((job) => {
      seen.push(String(job.id));
      return Promise.resolve({ delivered: job.data.payload.to });
    });
    const running = relay({ sweepMs: 60_000 });
    await running.start();
    cleanups.push(() => running.stop());

    const rolledBack = await commitJob(pool, { to: 'nobody@example.com' }, false);
    const id = await commitJob(pool, { to: 'ada@example.com' });
    // the NOTIFY on commit wakes the relay without waiting for a sweep
    await until(async () => (await row(pool, id))?.status === 'completed');
    expect(await row(pool, id)).toEqual({ status: 'completed', attempts: 1, result: { delivered: 'ada@example.com' }, last_error: null });
    expect(seen).toEqual([id]);
    expect(await row(pool, rolledBack)).toBeUndefined();
    expect(await queues.email.getJob(rolledBack)).toBeUndefined();
  });

  it('two relays at once enqueue each row once', async () => {
    const { pool, queues, relay } = await world();
    const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => commitJob(pool, { n })));
    const [a, b] = [relay(), relay()];
    const moved = await Promise.all([a.relayPending(), b.relayPending()]);
    expect(moved[0] + moved[1]).toBe(20);
    expect(await queues.email.getJobCountByTypes('waiting')).toBe(20);
    const statuses = await pool.query("SELECT count(*)::int AS n FROM jobs WHERE status = 'enqueued' AND id = ANY($1)", [ids]);
    expect(statuses.rows[0].n).toBe(20);
  });

  it('retries a failing job with backoff and completes it once', async () => {
    const { pool, relay, work } = await world();
    let runs = 0;
    work(() => {
      runs += 1;
      return runs < 3 ? Promise.reject(new Error(`transient failure ${runs}`)) : Promise.resolve({ ok: true });
    });
    const id = await commitJob(pool, {});
    await relay().relayPending();
    await until(async () => (await row(pool, id))?.status === 'completed');
    expect(runs).toBe(3);
    expect(await row(pool, id)).toMatchObject({ status: 'completed', attempts: 3, last_error: null });
  });

  it('marks a job failed with its error once its attempts are spent', async () => {
    const { pool, relay, work } = await world();
    let runs = 0;
    work(() => {
      runs += 1;
      return Promise.reject(new Error('SMTP said no'));
    });
    const id = await insertJob(pool, { queue: 'email', name: 'send', payload: {}, maxAttempts: 2 });
    await relay().relayPending();
    await until(async () => (await row(pool, id))?.status === 'failed');
    expect(runs).toBe(2);
    expect(await row(pool, id)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'SMTP said no' });
  });

  it('restores jobs that Redis lost, and a duplicate delivery of a finished job does nothing', async () => {
    const { pool, queues, relay, work } = await world();
    const id = await commitJob(pool, { to: 'grace@example.com' });
    await relay().relayPending();
    expect(await queues.email.getJob(id)).toBeDefined();

    // Redis loses everything of this queue (as after FLUSHALL or a failover without persistence)
    await queues.email.obliterate({ force: true });
    expect(await queues.email.getJob(id)).toBeUndefined();
    expect(await relay({ lostAfterMs: 0 }).reconcile()).toBe(1);

    let runs = 0;
    work(() => {
      runs += 1;
      return Promise.resolve({ sent: true });
    });
    await until(async () => (await row(pool, id))?.status === 'completed');

    // a second relay pass after completion adds nothing; a forced duplicate is skipped by the row check
    expect(await relay({ lostAfterMs: 0 }).reconcile()).toBe(0);
    await queues.email.add('send', { jobRowId: id, payload: {} }, { jobId: `${id}-duplicate` });
    await until(
      async () =>
        (await queues.email.getJobCountByTypes('completed')) >= 1 && (await queues.email.getJobCountByTypes('waiting', 'active')) === 0,
    );
    expect(runs).toBe(1);
  });

  it('listens again after PostgreSQL terminates its LISTEN connection, and the process lives on', async () => {
    const { pool, relay, work } = await world();
    const done: string[] = [];
    work((job) => {
      done.push(job.data.jobRowId);
      return Promise.resolve({});
    });
    // a sweep too slow to matter here: only NOTIFY can move the rows in time
    const running = relay({ sweepMs: 60_000 });
    await running.start();
    cleanups.push(() => running.stop());
    const first = await commitJob(pool, { n: 1 });
    await until(() => done.includes(first), 5_000);

    const { rows } = await pool.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    expect(rows).toHaveLength(1);
    await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    // a new LISTEN connection, made by the relay itself
    await until(async () => {
      const again = await pool.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> $1",
        [rows[0]!.pid],
      );
      return again.rowCount === 1;
    }, 5_000);

    const started = Date.now();
    const second = await commitJob(pool, { n: 2 });
    await until(() => done.includes(second), 5_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a committer's own add: rows written enqueued reach BullMQ; those a stopped Redis refused go back to the relay, which moves them", async () => {
    // a Redis of the test's own, killed and started again on its port as a crash and a restart would
    const dir = mkdtempSync(path.join(tmpdir(), 'hf-outbox-redis-'));
    let redisServer = await spawnRedis(dir);
    cleanups.push(async () => {
      await redisServer.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const { pool } = await world();
    // the server's connection: a producer fails fast while Redis is away instead of waiting for it
    const producer = createRedis(redisServer.url, 'producer');
    const connection = createRedis(redisServer.url, 'worker');
    const prefix = `hf-test-outbox-${randomBytes(4).toString('hex')}`;
    const [producerQueues, queues] = [openQueues(producer, prefix), openQueues(connection, prefix)];
    cleanups.push(async () => {
      await Promise.all([closeQueues(producerQueues), closeQueues(queues)]);
      producer.disconnect();
      connection.disconnect();
    });

    const added = await commitJob(pool, { n: 1 }, true, true);
    expect((await row(pool, added)).status).toBe('enqueued');
    await directEnqueuer(pool, producerQueues)([{ id: added, queue: 'email', name: 'send', payload: { n: 1 } }]);
    expect(await queues.email.getJob(added)).toBeDefined();

    await redisServer.kill();
    const refused = [await commitJob(pool, { n: 2 }, true, true), await commitJob(pool, { n: 3 }, true, true)];
    const adding = directEnqueuer(pool, producerQueues)(refused.map((id) => ({ id, queue: 'email' as const, name: 'send', payload: {} })));
    // the rows go back to pending and the error is the caller's
    await expect(adding).rejects.toThrow();
    for (const id of refused) expect((await row(pool, id)).status).toBe('pending');

    redisServer = await spawnRedis(dir, process.env.PATH, { port: redisServer.port });
    // the relay's first sweep moves them at once, however fresh: a pending row is always the relay's
    const sweeping = new OutboxRelay(pool, queues, log, { sweepMs: 60_000 });
    cleanups.push(() => sweeping.stop());
    await sweeping.start();
    await until(async () => (await Promise.all(refused.map((id) => row(pool, id)))).every((found) => found.status === 'enqueued'), 5_000);
    for (const id of refused) expect(await queues.email.getJob(id)).toBeDefined();
    // the restarted Redis kept the first job (append-only file); its row was never handed back
    expect(await queues.email.getJob(added)).toBeDefined();
    expect((await row(pool, added)).status).toBe('enqueued');
  });

  it('asks BullMQ about every stale row at once, and about a row whose job it holds only once per window', async () => {
    const { pool, queues, relay } = await world();
    const ids = [await commitJob(pool, { n: 1 }), await commitJob(pool, { n: 2 }), await commitJob(pool, { n: 3 })];
    const checking = relay({ lostAfterMs: 300 });
    await checking.relayPending();
    // the rows went unchanged for longer than the window
    await backdate(pool, ids, 350);
    let asked = 0;
    const getJobState = queues.email.getJobState.bind(queues.email);
    queues.email.getJobState = (id: string) => {
      asked += 1;
      return getJobState(id);
    };
    expect(await checking.reconcile()).toBe(0);
    expect(asked).toBe(3);

    // Redis loses the queue; within the window the held rows are not asked about again
    await queues.email.obliterate({ force: true });
    expect(await checking.reconcile()).toBe(0);
    expect(asked).toBe(3);
    // after it, the loss is found and every row restored, in one sweep
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 350);
    try {
      expect(await checking.reconcile()).toBe(3);
    } finally {
      clock.mockRestore();
    }
    expect(asked).toBe(6);
    for (const id of ids) expect(await queues.email.getJob(id)).toBeDefined();
  });

  it("a processor's work and its job's completion commit together; a delivery that finds the job completed meanwhile rolls its work back", async () => {
    const { pool, relay, work } = await world();
    await pool.query('CREATE TABLE job_work (job_id uuid NOT NULL)');
    const running = relay({ sweepMs: 60_000 });
    await running.start();
    cleanups.push(() => running.stop());
    let hold: Promise<void> = Promise.resolve();
    const worker = work((job, context) =>
      context.jobTransaction!(async (tx) => {
        await tx.client.query('INSERT INTO job_work (job_id) VALUES ($1)', [job.data.jobRowId]);
        await hold;
        return { worked: true };
      }),
    );
    const id = await commitJob(pool, {});
    await until(async () => (await row(pool, id))?.status === 'completed');
    expect(await row(pool, id)).toEqual({ status: 'completed', attempts: 1, result: { worked: true }, last_error: null });
    expect((await pool.query('SELECT count(*)::int AS n FROM job_work WHERE job_id = $1', [id])).rows[0].n).toBe(1);

    // another delivery completes the row while this one is inside its transaction
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const raced = await commitJob(pool, {});
    await until(async () => (await row(pool, raced))?.status === 'active');
    await pool.query("UPDATE jobs SET status = 'completed', result = '{\"elsewhere\": true}' WHERE id = $1", [raced]);
    // BullMQ's completed event comes once the delivery has returned, its transaction ended
    const finished = new Promise<unknown>((resolve) => worker.on('completed', (job, result) => job.id === raced && resolve(result)));
    release();
    expect(await finished).toEqual({ skipped: 'another delivery of the job completed it' });
    expect((await row(pool, raced)).result).toEqual({ elsewhere: true });
    expect((await pool.query('SELECT count(*)::int AS n FROM job_work WHERE job_id = $1', [raced])).rows[0].n).toBe(0);
  });

  it('a job claimed on completion (decision 0060): enqueued while it runs, each attempt counted as it ends, a duplicate delivery skipped', async () => {
    const { pool, queues, relay, work } = await world();
    await pool.query('CREATE TABLE job_work (job_id uuid PRIMARY KEY)');
    const running = relay({ sweepMs: 60_000 });
    await running.start();
    cleanups.push(() => running.stop());
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    work(
      (job, context) =>
        context.jobTransaction!(async (tx) => {
          runs += 1;
          await tx.client.query('INSERT INTO job_work (job_id) VALUES ($1)', [job.data.jobRowId]);
          if (runs === 1) throw new Error('the first attempt fails after writing');
          await hold;
          return { worked: true };
        }),
      { claimsOnCompletion: () => true },
    );
    const id = await commitJob(pool, {});
    // the first attempt's failure is counted and its work rolled back; the second runs, held
    await until(() => Promise.resolve(runs === 2));
    expect(await queues.email.getJobState(id)).toBe('active');
    expect(await row(pool, id)).toMatchObject({ status: 'enqueued', attempts: 1, last_error: 'the first attempt fails after writing' });
    release();
    await until(async () => (await row(pool, id))?.status === 'completed');
    expect(await row(pool, id)).toEqual({ status: 'completed', attempts: 2, result: { worked: true }, last_error: null });

    // a second delivery of the completed job fails on what the first stored: skipped, nothing changed
    const duplicate = await queues.email.add('send', { jobRowId: id, payload: {} }, { jobId: `${id}-again` });
    await until(async () => (await duplicate.getState()) === 'completed');
    expect((await queues.email.getJob(duplicate.id!))?.returnvalue).toEqual({ skipped: 'another delivery of the job completed it' });
    expect(runs).toBe(3);
    expect(await row(pool, id)).toEqual({ status: 'completed', attempts: 2, result: { worked: true }, last_error: null });
    expect((await pool.query('SELECT count(*)::int AS n FROM job_work')).rows[0].n).toBe(1);
  });
});
