import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { databaseIdentity, derivedQueuePrefix } from '#core/queues/prefix.js';
import { flowAwaitingGrading } from '#test/flows.js';
import { scratchDatabase, testEnv } from '#test/helpers.js';
import { flowClient } from '#test/journey.js';
import { runTs, type RunningProcess } from '#test/processes.js';
import { buildTestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { freePort } from './services/free-port.js';
import { spawnRedis } from './services/redis.js';

/*
 * Issue 34's restore drill, with real processes, pg_dump and pg_restore: flows in flight on one
 * system are backed up; the backup is restored into an empty database, with an empty Redis; the
 * processes started on it rebuild the queues from the jobs table, and each job runs when due.
 */

async function finished(process: RunningProcess): Promise<RunningProcess> {
  const { code } = await process.exited;
  if (code !== 0) throw new Error(`exited ${code}:\n${process.output()}`);
  return process;
}

describe('npm run backup and npm run restore', () => {
  it('a backup of flows in flight, restored into an empty database and an empty Redis, resumes: queues rebuilt, timers and reminders at their due times', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'hf-backup-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));

    // the system before: a server and no worker, so every job is still in flight when it is backed up
    const before = await buildTestApp({ ownDatabase: true, ownPrefix: true, listen: true, env: { ASSESSMENT_REMINDER_HOURS: '1' } });
    onTestFinished(() => before.close());
    const visitor = flowClient(before.url);
    const waiting = await visitor.start();
    const email = `restored-${Date.now()}@example.com`;
    await visitor.send(waiting.flowId, { type: 'CAPTURE_SUBMIT', name: 'Rita Restore', email });
    // a reminder goes only to a proven address (decision 0045)
    await before.pool.query('UPDATE leads SET email_proven_at = now() WHERE email = $1', [email]);
    const graded = await flowAwaitingGrading(before.pool, 'homework');
    const reminder = await before.pool.query<{ id: string; dueAt: number }>(
      `SELECT id, (extract(epoch FROM run_after) * 1000)::bigint AS "dueAt" FROM jobs WHERE flow_id = $1 AND name = 'ASSESSMENT_REMINDER_DUE'`,
      [waiting.flowId],
    );
    expect(reminder.rows).toHaveLength(1);
    const grading = await before.pool.query<{ state: string }>('SELECT state FROM flows WHERE id = $1', [graded.flowId]);

    // backup, then restore into an empty database (the old Redis is left behind)
    const backupFile = path.join(folder, 'hf.dump');
    const backup = await finished(runTs('scripts/backup.ts', testEnv({ DATABASE_URL: before.config.DATABASE_URL! }), [backupFile]));
    expect(backup.output()).toMatch(/^Backed up database \S+ \(PostgreSQL \d+\) to .*hf\.dump \(\d+ bytes\)\.$/m);
    const restoredUrl = await scratchDatabase({ migrated: false });
    const restore = await finished(runTs('scripts/restore.ts', testEnv({ DATABASE_URL: restoredUrl }), [backupFile]));
    expect(restore.output()).toContain('they rebuild the queues from the jobs table');
    // a second restore over it is refused: it is no longer empty
    const again = runTs('scripts/restore.ts', testEnv({ DATABASE_URL: restoredUrl }), [backupFile]);
    expect((await again.exited).code).toBe(1);
    expect(again.output()).toContain('is not empty: restore into an empty one');
    // the columns are compressed as they were (lz4 where this PostgreSQL has it: decision 0062)
    const compression = async (url: string) => {
      const client = new pg.Client(url);
      await client.connect();
      const found = await client.query(
        "SELECT attcompression FROM pg_attribute WHERE attrelid = 'flows'::regclass AND attname = 'snapshot'",
      );
      await client.end();
      return found.rows;
    };
    expect(await compression(restoredUrl)).toEqual(await compression(before.config.DATABASE_URL!));

    // the processes on the restored database and a new, empty Redis, with the default queue prefix
    const redis = await spawnRedis(path.join(folder, 'redis'));
    onTestFinished(() => redis.stop());
    const port = await freePort();
    const env = testEnv({ DATABASE_URL: restoredUrl, REDIS_URL: redis.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    delete env.QUEUE_PREFIX;
    for (const [entry, ready] of [
      ['server/main.ts', `Server listening at http://127.0.0.1:${port}`],
      ['workers/main.ts', 'worker ready'],
    ] as const) {
      const started = runTs(entry, env);
      onTestFinished(async () => {
        started.child.kill('SIGTERM');
        await started.exited;
      });
      await started.waitFor(ready);
    }
    const pool = new pg.Pool({ connectionString: restoredUrl, max: 2 });
    onTestFinished(() => pool.end());
    const prefix = derivedQueuePrefix(await databaseIdentity(pool));
    expect(prefix).not.toBe(before.config.QUEUE_PREFIX);

    // the grading job that was due is run: the flow moves on from where it was backed up
    await until(
      async () =>
        (await pool.query("SELECT 1 FROM jobs WHERE flow_id = $1 AND queue = 'grading' AND status = 'completed'", [graded.flowId]))
          .rowCount === 1,
      30_000,
      'the restored grading job did not run',
    );
    expect((await pool.query<{ state: string }>('SELECT state FROM flows WHERE id = $1', [graded.flowId])).rows[0]!.state).not.toBe(
      grading.rows[0]!.state,
    );

    // the reminder's timer is back in the new Redis, due when it was due before the backup
    const timers = new Queue('timers', { connection: { url: redis.url }, prefix });
    onTestFinished(() => timers.close());
    let job: Awaited<ReturnType<typeof timers.getJob>>;
    await until(async () => Boolean((job = await timers.getJob(reminder.rows[0]!.id))), 30_000, 'the reminder timer was not rebuilt');
    expect(await job!.isDelayed()).toBe(true);
    expect(Math.abs(job!.timestamp + (job!.delay ?? 0) - Number(reminder.rows[0]!.dueAt))).toBeLessThan(2_000);
    // its hour not waited out: promoted, it sends the reminder once, as it would have at its time
    await job!.promote();
    await until(
      async () =>
        (
          await pool.query(
            "SELECT 1 FROM email_outbox o JOIN jobs j ON j.id = o.job_id WHERE j.flow_id = $1 AND o.kind = 'assessment_reminder'",
            [waiting.flowId],
          )
        ).rowCount === 1,
      30_000,
      'the restored reminder was not sent',
    );

    // the visitor's browser carries on against the restored system: same cookie, same flow
    const returning = flowClient(`http://127.0.0.1:${port}`, { headers: { cookie: visitor.cookie() } });
    expect(await returning.get(waiting.flowId)).toMatchObject({ flowId: waiting.flowId, state: 'intro' });
    expect((await returning.send(waiting.flowId, { type: 'START_DIAGNOSTIC' })).state).not.toBe('intro');
  });
});
