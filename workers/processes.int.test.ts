import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '#scripts/services/free-port.js';
import { spawnRedis } from '#scripts/services/redis.js';
import { createPool } from '#core/db/pool.js';
import { createRedis } from '#core/redis.js';
import type { Config } from '#core/config/index.js';
import { isolatedConfig, privatePrefix, testEnv } from '#test/helpers.js';
import { backdater, flowClient, openSocket, runDiagnostic, SURVEYS, type FlowJson } from '#test/journey.js';
import { runTs, type RunningProcess } from '#test/processes.js';
import { buildTestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { retryJob } from '#server/admin/jobs.js';
import { closeQueues, openQueues } from '#core/queues/queues.js';
import { SWEEP_MS } from '#core/queues/relay.js';

/** A Redis connection for the test's own admin calls, closed when the test ends. */
function retryRedis() {
  const redis = createRedis(config.REDIS_URL!, 'producer');
  onTestFinished(async () => {
    await redis.quit();
  });
  return redis;
}

let pool: pg.Pool;
let config: Config;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ config, drop } = await isolatedConfig());
  pool = createPool(config.DATABASE_URL!, 4);
});
afterAll(async () => {
  await pool.end();
  await drop();
});

/** Environment for a server or worker process on this file's database and a queue prefix of its own. */
const processEnv = (extra: Record<string, string> = {}) =>
  testEnv({ DATABASE_URL: config.DATABASE_URL!, QUEUE_PREFIX: privatePrefix(), ...extra });

const email = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function startServer(env: NodeJS.ProcessEnv): Promise<{ base: string; process: RunningProcess }> {
  const port = await freePort();
  const server = runTs('server/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
  await server.waitFor(`Server listening at http://127.0.0.1:${port}`);
  return { base: `http://127.0.0.1:${port}`, process: server };
}

async function startWorker(env: NodeJS.ProcessEnv): Promise<RunningProcess> {
  const worker = runTs('workers/main.ts', { ...env, LOG_LEVEL: 'info' });
  await worker.waitFor('worker ready');
  return worker;
}

/**
 * Capture, diagnostic (server-timed, backdated so it is not rushed) and the survey's doorstep,
 * by one visitor, whose client is returned with the flow (the same browser sends the survey).
 */
async function toSurvey(base: string): Promise<FlowJson & { client: ReturnType<typeof flowClient> }> {
  const client = flowClient(base);
  const flow = await client.start();
  await client.send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Riley Chen', email: email('process') });
  await client.send(flow.flowId, { type: 'START_DIAGNOSTIC' });
  const diagnostic = await runDiagnostic(client, { backdate: backdater(pool), thinkMs: 6000 });
  return {
    ...(await client.send(flow.flowId, { type: 'DIAGNOSTIC_COMPLETED', answers: {}, diagnosticFlowId: diagnostic.flowId })),
    client,
  };
}

/**
 * Holds the lead's row in an open transaction, so every run of its grading job stops half-way: its
 * rows' foreign keys take KEY SHARE on the lead, which FOR UPDATE blocks (grading writes nothing on
 * the lead). The survey's own job row would wait too, so hold it only once the job exists, before a
 * worker runs it.
 */
async function holdLead(leadId: string): Promise<pg.Client> {
  const blocker = new pg.Client(config.DATABASE_URL);
  await blocker.connect();
  onTestFinished(() => blocker.end());
  await blocker.query('BEGIN');
  await blocker.query('SELECT 1 FROM leads WHERE lead_id = $1 FOR UPDATE', [leadId]);
  return blocker;
}

/** True while a grading transaction waits on a held lead. */
async function gradingWaits(): Promise<boolean> {
  const waiting = await pool.query(
    "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH new_diagnostic AS%'",
  );
  return (waiting.rowCount ?? 0) > 0;
}

async function flowState(flowId: string): Promise<string> {
  return (await pool.query<{ state: string }>('SELECT state FROM flows WHERE id = $1', [flowId])).rows[0]!.state;
}

async function countFor(table: string, flowId: string): Promise<number> {
  return (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE flow_id = $1`, [flowId])).rows[0]!.n;
}

describe('real server and worker processes', () => {
  it('with two servers and one worker, the push reaches a browser connected to the other server', async () => {
    const env = processEnv();
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    await startWorker(env);

    const atSurvey = await toSurvey(a.base);
    // the visitor cookie server a issued is good on server b: the processes share its key
    const onB = await openSocket(b.base, atSurvey.client.cookie());
    try {
      await onB.subscribe(atSurvey.flowId);
      await atSurvey.client.send(atSurvey.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.homework });
      const graded = await onB.next((f) => f.type === 'event' && f.event.type === 'GRADED');
      expect(graded).toMatchObject({ origin: 'worker', state: 'results' });
    } finally {
      onB.close();
    }
  });

  it('a worker killed with SIGKILL in the middle of a job: the job completes after a worker restarts, and nothing is stored twice', async () => {
    // the default job lock: the promise is a killed worker's job running again within 10 s
    const env = processEnv();
    const server = await startServer(env);
    const atSurvey = await toSurvey(server.base);
    const leadId = atSurvey.snapshot.context.session.leadId;

    await atSurvey.client.send(atSurvey.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call });
    const blocker = await holdLead(leadId);
    const first = await startWorker(env);
    await until(gradingWaits);
    process.kill(-first.child.pid!, 'SIGKILL');
    const killedAt = Date.now();
    await first.exited;
    await blocker.query('ROLLBACK');
    expect(await countFor('assessment_results', atSurvey.flowId)).toBe(0);

    await startWorker(env);
    await until(async () => (await countFor('assessment_results', atSurvey.flowId)) === 1, 15_000);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    await until(async () => (await flowState(atSurvey.flowId)) === 'results', 10_000);
    expect(await countFor('assessment_results', atSurvey.flowId)).toBe(1);
    expect(await countFor('survey_responses', atSurvey.flowId)).toBe(1);
    expect(await countFor('diagnostics', atSurvey.flowId)).toBe(1);
    const job = await pool.query("SELECT status, attempts FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [atSurvey.flowId]);
    expect(job.rows).toEqual([{ status: 'completed', attempts: 2 }]);
  });

  it('a job whose worker dies twice ends failed in the table, its flow shows the fallback result, and the coach can run it again', async () => {
    const env = processEnv({ JOB_LOCK_MS: '2000' });
    const server = await startServer(env);
    const atSurvey = await toSurvey(server.base);
    const leadId = atSurvey.snapshot.context.session.leadId;

    await atSurvey.client.send(atSurvey.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call });
    const blocker = await holdLead(leadId);
    const first = await startWorker(env);
    await until(gradingWaits);
    process.kill(-first.child.pid!, 'SIGKILL');
    await first.exited;
    // the next worker takes the job up again once its lock lapses, and dies on it too; a grading
    // job's row is claimed only when its work commits, so BullMQ is what counts these starts
    const queues = openQueues(retryRedis(), env.QUEUE_PREFIX!);
    onTestFinished(() => closeQueues(queues));
    const gradingJob = await pool.query<{ id: string }>("SELECT id FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [atSurvey.flowId]);
    const second = await startWorker(env);
    await until(async () => (await gradingWaits()) && (await queues.grading.getJob(gradingJob.rows[0]!.id))?.attemptsStarted === 2, 20_000);
    process.kill(-second.child.pid!, 'SIGKILL');
    await second.exited;

    // BullMQ fails it ("stalled more than allowable limit") without calling the processor: the
    // relay's sweep finalises the row, and the flow hears it failed for good (the product's fallback)
    const startedAt = Date.now();
    await startWorker(env);
    await until(
      async () =>
        (await pool.query("SELECT status FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [atSurvey.flowId])).rows[0]?.status ===
        'failed',
      20_000,
    );
    const failed = await pool.query("SELECT id, attempts, last_error FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [
      atSurvey.flowId,
    ]);
    expect(failed.rows[0].last_error).toMatch(/stalled more than allowable limit/);
    // both starts counted, though neither worker lived to write the row
    expect(failed.rows[0].attempts).toBe(2);
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    await until(async () => (await flowState(atSurvey.flowId)) === 'results', 10_000);
    const shown = await pool.query("SELECT snapshot->'context'->'result'->>'fallback' AS fallback FROM flows WHERE id = $1", [
      atSurvey.flowId,
    ]);
    expect(shown.rows[0].fallback).toBe('true');

    // the coach's retry (the admin's Retry) runs it again; with the lead free it completes, once
    await blocker.query('ROLLBACK');
    const retried = await retryJob(pool, queues, failed.rows[0].id);
    expect(retried).toHaveProperty('job');
    await until(
      async () =>
        (await pool.query("SELECT status FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [atSurvey.flowId])).rows[0]?.status ===
        'completed',
      20_000,
    );
    expect(await countFor('assessment_results', atSurvey.flowId)).toBe(1);
  });

  it('after FLUSHALL on Redis, unfinished jobs come back from the outbox and finish', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hf-flushall-'));
    const redisServer = await spawnRedis(dir);
    onTestFinished(async () => {
      await redisServer.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const flushConfig = { ...config, REDIS_URL: redisServer.url };
    const { url: base, close } = await buildTestApp({ config: flushConfig, sharing: { pool }, listen: true });
    onTestFinished(close);

    // a relay but no grading worker yet: the job reaches Redis and waits there
    await buildTestWorker({ pool, config: flushConfig }, { queues: ['timers'] });
    const atSurvey = await toSurvey(base);
    await atSurvey.client.send(atSurvey.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.nurture });
    await until(async () => {
      const job = await pool.query("SELECT status FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [atSurvey.flowId]);
      return job.rows[0]?.status === 'enqueued';
    });
    const admin = new Redis(redisServer.url);
    await admin.flushall();
    expect(await admin.dbsize()).toBe(0);
    admin.disconnect();

    // the relay's own sweep (every 2 s, for rows unchanged 5 s) notices the loss
    const flushedAt = Date.now();
    await buildTestWorker({ pool, config: flushConfig }, { queues: ['grading'], relay: { sweepMs: SWEEP_MS } });
    await until(async () => (await countFor('assessment_results', atSurvey.flowId)) === 1, 15_000);
    expect(Date.now() - flushedAt).toBeLessThan(10_000);
    await until(async () => (await flowState(atSurvey.flowId)) === 'results', 10_000);
    expect(await countFor('assessment_results', atSurvey.flowId)).toBe(1);
  });
});
