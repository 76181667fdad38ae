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
