import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { freePort } from '#scripts/services/free-port.js';
import { isolatedConfig, privatePrefix, testEnv } from '#test/helpers.js';
import { runTs } from '#test/processes.js';
import { until } from '#test/until.js';
import { databaseIdentity, derivedQueuePrefix, ownerKey } from './prefix.js';

/** A database of the test's own (dropped when it ends), with its identity's prefix, whose Redis keys are removed too. */
async function copyDatabase(redis: Redis): Promise<{ url: string; pool: pg.Pool; prefix: string }> {
  const { config, drop } = await isolatedConfig();
  const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
  const prefix = derivedQueuePrefix(await databaseIdentity(pool));
  onTestFinished(async () => {
    await pool.end();
    await drop();
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 })) {
      if ((keys as string[]).length) await redis.del(...(keys as string[]));
    }
  });
  return { url: config.DATABASE_URL!, pool, prefix };
}

/** A due flow timer (for a flow that does not exist: what its worker then does is no matter here). */
async function insertTimerJob(pool: pg.Pool): Promise<string> {
  const inserted = await pool.query<{ id: string }>(
    `INSERT INTO jobs (queue, name, payload) VALUES ('timers', 'flow-event', $1) RETURNING id`,
    [{ flowId: randomUUID(), event: { type: 'NUDGE' } }],
  );
  return inserted.rows[0]!.id;
}

function redisClient(): Redis {
  const redis = new Redis(inject('redisUrl'));
  onTestFinished(async () => {
    await redis.quit();
  });
  return redis;
}

describe('queue prefixes from the database identity', () => {
  it('two copies (two databases) on one Redis get prefixes of their own, and each runs only its own jobs', async () => {
    const redis = redisClient();
    const [first, second] = [await copyDatabase(redis), await copyDatabase(redis)];
    expect(first.prefix).not.toBe(second.prefix);
    expect(first.prefix).toMatch(/^hf-[A-Za-z0-9_-]+-[0-9a-f]{10}$/);

    // each copy's worker with QUEUE_PREFIX unset, as `npm start` runs it
    for (const copy of [first, second]) {
      const env = testEnv({ DATABASE_URL: copy.url, LOG_LEVEL: 'info' });
      delete env.QUEUE_PREFIX;
      const worker = runTs('workers/main.ts', env);
      onTestFinished(async () => {
        worker.child.kill('SIGTERM');
        await worker.exited;
      });
      await worker.waitFor('worker ready');
    }
    const jobs = [await insertTimerJob(first.pool), await insertTimerJob(second.pool)];

    for (const [index, copy] of [first, second].entries()) {
      // an attempt is counted by the worker that claims the row in its own database (claimJob)
      await until(async () => (await copy.pool.query('SELECT 1 FROM jobs WHERE id = $1 AND attempts > 0', [jobs[index]])).rowCount === 1);
      // the job ran in its own database's queue, and only there
      const stored = await redis.hget(`${copy.prefix}:timers:${jobs[index]}`, 'data');
      expect(JSON.parse(stored!).jobRowId).toBe(jobs[index]);
      expect(await redis.get(ownerKey(copy.prefix))).toContain(`/${new URL(copy.url).pathname.slice(1)}`);
    }
    expect(await redis.exists(`${second.prefix}:timers:${jobs[0]}`, `${first.prefix}:timers:${jobs[1]}`)).toBe(0);
  });

  it('a process pointed at a prefix another database holds refuses to start, in one line', async () => {
    const redis = redisClient();
    const [owner, intruder] = [await copyDatabase(redis), await copyDatabase(redis)];
    const prefix = privatePrefix();

    const worker = runTs('workers/main.ts', testEnv({ DATABASE_URL: owner.url, QUEUE_PREFIX: prefix, LOG_LEVEL: 'info' }));
    onTestFinished(async () => {
      worker.child.kill('SIGTERM');
      await worker.exited;
    });
    await worker.waitFor('worker ready');

    const ownerName = new URL(owner.url).pathname.slice(1);
    const expected = `Redis already holds queue prefix "${prefix}" for another database ("${ownerName}"); set QUEUE_PREFIX to a prefix of its own for this database, or point REDIS_URL at another Redis.`;
    for (const entry of ['server/main.ts', 'workers/main.ts']) {
      const refused = runTs(
        entry,
        testEnv({ DATABASE_URL: intruder.url, QUEUE_PREFIX: prefix, PORT: String(await freePort()), HOST: '127.0.0.1' }),
      );
      expect((await refused.exited).code).toBe(1);
      expect(refused.output().trim()).toBe(expected);
    }
    // the owner's worker is untouched and its claim stands
    expect(worker.child.exitCode).toBeNull();
    expect(await redis.get(ownerKey(prefix))).toContain(`/${ownerName}`);
  });
});
