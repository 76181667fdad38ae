import type pg from 'pg';
import type { QueueName } from './names.js';

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
 * the job to BullMQ itself after the commit skips the NOTIFY (notify: false); the relay's sweep
 * still finds the row if that add never happens. Returns the row id, which becomes the BullMQ job id.
 */
export async function insertJob(db: pg.ClientBase | pg.Pool, job: NewJob, options: { notify?: boolean } = {}): Promise<string> {
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO jobs (queue, name, payload, flow_id, lead_id, max_attempts, run_after)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int > 0 THEN now() + make_interval(secs => $7::int / 1000.0) END)
     RETURNING id`,
    [job.queue, job.name, job.payload, job.flowId ?? null, job.leadId ?? null, job.maxAttempts ?? 5, Math.round(job.delayMs ?? 0)],
  );
  const id = inserted.rows[0]!.id;
  if (options.notify !== false) await db.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, id]);
  return id;
}
