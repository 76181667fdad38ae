import type pg from 'pg';
import type { QueueName } from './names.js';

/*
 * The one writer of jobs (core/db/table-owners.ts; decision 0004): a row is born here in its
 * cause's transaction, and every later change of it (relayed, handed back, claimed, completed,
 * retried, failed, retried by the coach, removed) is one of the functions below, whoever calls it.
 */

/** The channel a committed job row is announced on, so the relay moves it at once instead of at its next sweep. */
export const JOBS_CHANNEL = 'hf_jobs';

/** A job to be born in the caller's transaction. */
export interface NewJob {
  queue: QueueName;
  name: string;
  payload: Record<string, unknown>;
  flowId?: string | null;
  leadId?: string | null;
  maxAttempts?: number;
  /** Hold the job back this long after commit (a delayed flow event). */
  delayMs?: number;
}

/**
 * Writes a job row (the outbox) with the caller's client, so it commits or rolls back with the
 * event that caused it; the NOTIFY, delivered only on commit, wakes the relay. A caller that adds
 * the job to BullMQ itself once committed (`direct`) writes the row already enqueued and skips the
 * NOTIFY, saving a write after the commit: if its add never happens, it hands the row back to the
 * relay (pending), and if it cannot even do that, the relay's sweep finds the job missing from
 * BullMQ and adds it. Returns the row id, which becomes the BullMQ job id.
 */
export async function insertJob(db: pg.ClientBase | pg.Pool, job: NewJob, options: { direct?: boolean } = {}): Promise<string> {
  const inserted = await db.query<{ id: string }>({
    name: 'insert-job',
    text: `INSERT INTO jobs (queue, name, payload, flow_id, lead_id, max_attempts, run_after, status, enqueued_at)
           VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int > 0 THEN now() + make_interval(secs => $7::int / 1000.0) END,
                   CASE WHEN $8 THEN 'enqueued' ELSE 'pending' END, CASE WHEN $8 THEN now() END)
           RETURNING id`,
    values: [
      job.queue,
      job.name,
      job.payload,
      job.flowId ?? null,
      job.leadId ?? null,
      job.maxAttempts ?? 5,
      Math.round(job.delayMs ?? 0),
      options.direct === true,
    ],
  });
  const id = inserted.rows[0]!.id;
  if (!options.direct) await db.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, id]);
  return id;
}

/** The relay's claimed rows reached BullMQ: enqueued, in the transaction that holds them claimed. */
export async function markJobsEnqueued(client: pg.ClientBase, ids: string[]): Promise<void> {
  await client.query("UPDATE jobs SET status = 'enqueued', enqueued_at = now() WHERE id = ANY($1)", [ids]);
}

/** Rows written enqueued whose direct add to BullMQ failed go back to pending, for the relay's next pass. */
export async function handJobsBackToRelay(db: pg.Pool, ids: string[]): Promise<void> {
  await db.query("UPDATE jobs SET status = 'pending', enqueued_at = NULL WHERE id = ANY($1) AND status = 'enqueued'", [ids]);
}

/**
 * An attempt as the row counts it when it ends (decision 0060). `counted` when claimJob counted it as
 * it began; otherwise its end counts it, for a job whose claim rides on its completion. Either way the
 * row takes at least BullMQ's count of starts (`started`, its attemptsStarted), which also counts
 * attempts whose worker died before writing anything.
 */
export interface AttemptTally {
  counted: boolean;
  started: number;
}

// the attempts column after an attempt ends; $3 is 1 when the end counts the attempt, $4 BullMQ's starts
const ATTEMPTS_AFTER = 'attempts = GREATEST(attempts + $3::int, $4::int)';
const tallyValues = (tally: AttemptTally) => [tally.counted ? 0 : 1, tally.started];

/** A worker starts an attempt: the row goes active with the attempt counted; false when it is completed or gone (skip the job). */
export async function claimJob(db: pg.Pool, id: string): Promise<boolean> {
  const claimed = await db.query({
    name: 'claim-job',
    text: "UPDATE jobs SET status = 'active', attempts = attempts + 1 WHERE id = $1 AND status <> 'completed' RETURNING id",
    values: [id],
  });
  return Boolean(claimed.rowCount);
}

/** Marks the row completed with `result`, unless it already is; true when this call did. */
export async function completeJob(db: pg.ClientBase | pg.Pool, id: string, result: unknown, tally: AttemptTally): Promise<boolean> {
  const done = await db.query({
    name: 'complete-job',
    text: `UPDATE jobs SET status = 'completed', result = $2, last_error = NULL, finished_at = now(), ${ATTEMPTS_AFTER}
           WHERE id = $1 AND status <> 'completed' RETURNING id`,
    values: [id, JSON.stringify(result ?? null), ...tallyValues(tally)],
  });
  return Boolean(done.rowCount);
}

/** An attempt failed and BullMQ retries it: the row waits enqueued, with the error (not a row another delivery settled). */
export async function requeueAfterFailedAttempt(db: pg.Pool, id: string, error: string, tally: AttemptTally): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'enqueued', last_error = $2, ${ATTEMPTS_AFTER} WHERE id = $1 AND status NOT IN ('completed', 'failed')`,
    [id, error, ...tallyValues(tally)],
  );
}

/** Marks the row failed for good; true only for the first caller, so the flow is told once. */
export async function failJobForGood(db: pg.Pool, id: string, error: string, tally: AttemptTally): Promise<boolean> {
  const moved = await db.query(
    `UPDATE jobs SET status = 'failed', last_error = $2, finished_at = now(), ${ATTEMPTS_AFTER}
     WHERE id = $1 AND status NOT IN ('completed', 'failed') RETURNING id`,
    [id, error, ...tallyValues(tally)],
  );
  return Boolean(moved.rowCount);
}

/** Whether another delivery settled the row (completed it, or it was removed): a failure of this one is then no failure. */
export async function jobSettledElsewhere(db: pg.Pool, id: string): Promise<boolean> {
  const row = await db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [id]);
  return row.rows[0] === undefined || row.rows[0].status === 'completed';
}

/**
 * The coach's retry: locked rows go back to pending as if new (attempts, error, result and times
 * cleared), and the relay is woken with `notice`. In the caller's transaction, which holds them locked.
 */
export async function requeueForRetry(client: pg.ClientBase, ids: string[], notice: string): Promise<void> {
  await client.query(
    `UPDATE jobs SET status = 'pending', attempts = 0, last_error = NULL, result = NULL, finished_at = NULL,
       enqueued_at = NULL, run_after = NULL
     WHERE id = ANY($1)`,
    [ids],
  );
  await client.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, notice]);
}

/** Removes a job for good (the admin's remove): deleting the row is what stops the relay re-adding it. */
export async function deleteJob(client: pg.ClientBase, id: string): Promise<void> {
  await client.query('DELETE FROM jobs WHERE id = $1', [id]);
}

/** A lead's erase: jobs that name the lead only in their payload (no lead or flow to cascade from). */
export async function deleteJobsNamingOnlyLead(client: pg.ClientBase, leadId: string): Promise<void> {
  await client.query(`DELETE FROM jobs WHERE lead_id IS NULL AND flow_id IS NULL AND payload->>'leadId' = $1`, [leadId]);
}
