import type { Queue } from 'bullmq';
import type pg from 'pg';
import { inTransaction } from '#core/db/transaction.js';
import { deleteJob, requeueForRetry } from '#core/queues/outbox.js';
import { QUEUE_NAMES, type QueueName } from '#core/queues/names.js';
import type { Queues } from '#core/queues/queues.js';
import {
  JOB_STATUSES,
  type AdminJob,
  type BullCounts,
  type JobStatus,
  type JobsPage,
  type JobsSummary,
  type jobsQuerySchema,
} from '#machines/protocol/admin/jobs.js';
import type { z } from 'zod';

/** Rows per page of the jobs table. */
const JOBS_PAGE_SIZE = 25;
/** How long the summary waits for Redis before answering the database's counts alone. */
const REDIS_TIMEOUT_MS = 1_500;

const JOB_COLUMNS = 'id, queue, name, status, attempts, max_attempts, last_error, payload, created_at, finished_at, lead_id, flow_id';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('redis timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function bullCounts(queue: Queue): Promise<BullCounts> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
  return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 };
}

/** Counts per queue and status from the outbox (every queue, zeros included) beside BullMQ's live counts. */
export async function jobsSummary(db: pg.Pool, queues: Queues): Promise<JobsSummary> {
  const [rows, live] = await Promise.all([
    db.query<{ queue: QueueName; status: JobStatus; count: number }>(
      'SELECT queue, status, count(*)::int AS count FROM jobs GROUP BY 1, 2',
    ),
    withTimeout(Promise.all(QUEUE_NAMES.map((name) => bullCounts(queues[name]))), REDIS_TIMEOUT_MS).catch(() => null),
  ]);
  return {
    redis: live ? 'up' : 'down',
    queues: QUEUE_NAMES.map((queue, index) => {
      const counts = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as Record<JobStatus, number>;
      for (const row of rows.rows) if (row.queue === queue) counts[row.status] = row.count;
      return { queue, counts, total: Object.values(counts).reduce((sum, n) => sum + n, 0), bull: live?.[index] ?? null };
    }),
  };
}

/** One page of job rows, newest first, optionally of one queue and one status. */
export async function listJobs(db: pg.Pool, filter: z.infer<typeof jobsQuerySchema>): Promise<JobsPage> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.queue) where.push(`queue = $${params.push(filter.queue)}`);
  if (filter.status) where.push(`status = $${params.push(filter.status)}`);
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const [rows, total] = await Promise.all([
    db.query<AdminJob>(
      `SELECT ${JOB_COLUMNS} FROM jobs ${clause} ORDER BY created_at DESC, id LIMIT ${JOBS_PAGE_SIZE} OFFSET $${params.length + 1}`,
      [...params, (filter.page - 1) * JOBS_PAGE_SIZE],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM jobs ${clause}`, params),
  ]);
  return { jobs: rows.rows, total: total.rows[0]!.total, page: filter.page, pageSize: JOBS_PAGE_SIZE };
}

export type RetryOutcome = { job: AdminJob } | { missing: true } | { notFailed: JobStatus } | { redisDown: true };

/**
 * Runs a failed job again, once: with the row locked, BullMQ's failed job of the same id is
 * removed (else the relay's add would be a no-op on the kept id), then the row goes back to
 * pending with its attempts reset and the relay is woken. An unfinished row whose BullMQ job
 * failed or is gone counts as failed (the table and BullMQ disagree until the relay's sweep
 * notices). If Redis does not answer, the row stays as it was (redisDown).
 */
export async function retryJob(pool: pg.Pool, queues: Queues, id: string): Promise<RetryOutcome> {
  // every early answer comes before anything is written, so the transaction commits nothing then
  return inTransaction(pool, async (client): Promise<RetryOutcome> => {
    const locked = await client.query<{ queue: QueueName; status: JobStatus }>('SELECT queue, status FROM jobs WHERE id = $1 FOR UPDATE', [
      id,
    ]);
    const row = locked.rows[0];
    if (!row) return { missing: true };
    if (row.status === 'completed' || row.status === 'pending') return { notFailed: row.status };
    try {
      const existing = await withTimeout(queues[row.queue].getJob(id), REDIS_TIMEOUT_MS);
      // an unfinished row is retried only when BullMQ has failed its job or lost it: otherwise it is still on its way
      if (row.status !== 'failed' && existing && !(await withTimeout(existing.isFailed(), REDIS_TIMEOUT_MS)))
        return { notFailed: row.status };
      if (existing) await withTimeout(existing.remove(), REDIS_TIMEOUT_MS);
    } catch {
      return { redisDown: true };
    }
    await requeueForRetry(client, [id], id);
    const updated = await client.query<AdminJob>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id]);
    return { job: updated.rows[0]! };
  });
}

/** Failed rows retried per transaction (each holds their row locks while BullMQ's copies go). */
const RETRY_BATCH = 200;

export type RetryFailedOutcome = { retried: number } | { redisDown: true; retried: number };

/**
 * Runs every failed job (of one queue, or all) again, as retryJob does one: in batches, with the
 * rows locked, BullMQ's failed copies are removed and the rows go back to pending for the relay.
 * Only rows failed before the call started are taken, so a job that fails again at once is not
 * retried twice. If Redis stops answering, the batch in hand stays failed (redisDown, with the
 * count already retried).
 */
export async function retryFailedJobs(pool: pg.Pool, queues: Queues, queue?: QueueName): Promise<RetryFailedOutcome> {
  const started = (await pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
  let retried = 0;
  /** Rows whose BullMQ job is still held by its worker (it is moving to failed): left for another time. */
  const busy: string[] = [];
  for (;;) {
    const batch = await inTransaction(pool, async (client): Promise<'done' | 'redisDown' | number> => {
      const locked = await client.query<{ id: string; queue: QueueName }>(
        `SELECT id, queue FROM jobs
         WHERE status = 'failed' AND updated_at <= $1 AND ($2::text IS NULL OR queue = $2) AND id <> ALL($3::uuid[])
         ORDER BY updated_at LIMIT ${RETRY_BATCH} FOR UPDATE SKIP LOCKED`,
        [started, queue ?? null, busy],
      );
      if (!locked.rowCount) return 'done';
      let cleared: boolean[];
      try {
        // remove() answers 0 for a job BullMQ no longer has (fine) or one a worker still holds
        const clear = async ({ id, queue: name }: { id: string; queue: QueueName }) =>
          (await queues[name].remove(id)) === 1 || !(await queues[name].getJob(id));
        cleared = await withTimeout(Promise.all(locked.rows.map(clear)), REDIS_TIMEOUT_MS);
      } catch {
        return 'redisDown';
      }
      const ids = locked.rows.filter((_row, index) => cleared[index]).map((row) => row.id);
      busy.push(...locked.rows.filter((_row, index) => !cleared[index]).map((row) => row.id));
      await requeueForRetry(client, ids, 'retry-failed');
      return ids.length;
    });
    if (batch === 'done') return { retried };
    if (batch === 'redisDown') return { redisDown: true, retried };
    retried += batch;
  }
}

export type RemoveOutcome = { removed: AdminJob } | { missing: true } | { running: true } | { redisDown: true };

/**
 * Removes a job for good: BullMQ's copy, then its row, in the row's transaction. Deleting the row
 * (rather than marking it) is what stops it: the relay re-adds any pending or unfinished row
 * whose BullMQ job is gone, and a worker that still picks up a copy skips a job without a row.
 * Results it already stored keep their data and lose only the link to the job. A running job
 * cannot be removed (its worker holds BullMQ's lock and is writing the row): `running`.
 */
export async function removeJob(pool: pg.Pool, queues: Queues, id: string): Promise<RemoveOutcome> {
  // every early answer comes before anything is written, so the transaction commits nothing then
  return inTransaction(pool, async (client): Promise<RemoveOutcome> => {
    const locked = await client.query<AdminJob>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 FOR UPDATE`, [id]);
    const row = locked.rows[0];
    if (!row) return { missing: true };
    if (row.status === 'active') return { running: true };
    let lockedByWorker = false;
    try {
      const queued = await withTimeout(queues[row.queue].getJob(id), REDIS_TIMEOUT_MS);
      // remove() answers 0 when a worker took the job since the row was read (its update of the
      // row waits for this transaction)
      if (queued) lockedByWorker = (await withTimeout(queues[row.queue].remove(id), REDIS_TIMEOUT_MS)) === 0;
    } catch {
      return { redisDown: true };
    }
    if (lockedByWorker) return { running: true };
    await deleteJob(client, id);
    return { removed: row };
  });
}
