import type pg from 'pg';
import type { Logger } from 'pino';
import { QUEUE_NAMES, type QueueName } from './names.js';
import { JOBS_CHANNEL } from './outbox.js';
import type { Queues } from './queues.js';

interface JobRow {
  id: string;
  queue: QueueName;
  name: string;
  payload: Record<string, unknown>;
  max_attempts: number;
  /** Milliseconds until the row's run_after, 0 when due. */
  delay_ms: number;
}

/** What a BullMQ job carries: the outbox row it stands for, and that row's payload. */
export interface RelayedJobData {
  jobRowId: string;
  payload: Record<string, unknown>;
}

const BATCH = 100;
/** How long a committed row is left to its committer's direct add before a sweep moves it. */
const FRESH_MS = 2_000;
const DELAY_MS = "GREATEST(0, floor(extract(epoch FROM run_after - now()) * 1000))::int AS delay_ms";

/**
 * Moves outbox rows into BullMQ with jobId = row id. Rows are claimed with FOR UPDATE SKIP LOCKED,
 * so any number of relays can run; a row whose BullMQ job has vanished (Redis lost its data) is
 * added again by the reconcile sweep. Adding is idempotent while BullMQ still holds the job id.
 */
export class OutboxRelay {
  private listener?: pg.PoolClient;
  private timer?: NodeJS.Timeout;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly queues: Queues,
    private readonly log: Pick<Logger, 'warn' | 'error'>,
    private readonly options: { sweepMs?: number; lostAfterMs?: number } = {},
  ) {}

  /** Listens for new rows and sweeps on a timer until stop(). */
  async start(): Promise<void> {
    this.listener = await this.pool.connect();
    this.listener.on('notification', () => this.kick());
    this.listener.on('error', (error) => this.log.error({ err: error }, 'outbox listener lost its connection'));
    await this.listener.query(`LISTEN ${JOBS_CHANNEL}`);
    this.timer = setInterval(() => this.kick(true), this.options.sweepMs ?? 5_000);
    this.kick(true);
  }

  /** Stops listening and waits for a relay pass in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.listener) {
      await this.listener.query(`UNLISTEN ${JOBS_CHANNEL}`).catch(() => {});
      this.listener.release();
    }
    await this.running;
  }

  // Passes run one after another; a burst of notifications collapses into the next pass.
  private kick(reconcile = false): void {
    if (this.stopped) return;
    this.running = this.running
      .then(async () => {
        // a sweep leaves fresh rows to the process that committed them (its direct add)
        await this.relayPending(reconcile ? FRESH_MS : 0);
        if (reconcile) await this.reconcile();
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'outbox relay pass failed; will retry'));
  }

  /** Enqueues every pending row at least `minAgeMs` old; returns how many were moved. */
  async relayPending(minAgeMs = 0): Promise<number> {
    let moved = 0;
    for (;;) {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const claimed = await client.query<JobRow>(
          `SELECT id, queue, name, payload, max_attempts, ${DELAY_MS} FROM jobs
           WHERE status = 'pending' AND created_at <= now() - make_interval(secs => $1)
           ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
          [minAgeMs / 1000],
        );
        for (const row of claimed.rows) await this.add(row);
        if (claimed.rowCount) {
          await client.query("UPDATE jobs SET status = 'enqueued', enqueued_at = now() WHERE id = ANY($1)", [claimed.rows.map((row) => row.id)]);
        }
        await client.query('COMMIT');
        moved += claimed.rowCount ?? 0;
        if ((claimed.rowCount ?? 0) < BATCH) return moved;
      } catch (error) {
        // nothing is marked enqueued unless it reached Redis: the rows stay pending for the next pass
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    }
  }

  /** Re-adds unfinished rows whose BullMQ job no longer exists; returns how many. */
  async reconcile(): Promise<number> {
    const stale = await this.pool.query<JobRow>(
      `SELECT id, queue, name, payload, max_attempts, ${DELAY_MS} FROM jobs
       WHERE status IN ('enqueued', 'active') AND updated_at < now() - make_interval(secs => $1)`,
      [(this.options.lostAfterMs ?? 30_000) / 1000],
    );
    let restored = 0;
    for (const row of stale.rows) {
      if (!QUEUE_NAMES.includes(row.queue) || (await this.queues[row.queue].getJob(row.id))) continue;
      await this.add(row);
      restored += 1;
    }
    if (restored) this.log.warn({ restored }, 'outbox relay restored jobs that Redis had lost');
    return restored;
  }

  private async add(row: JobRow): Promise<void> {
    const data: RelayedJobData = { jobRowId: row.id, payload: row.payload };
    await this.queues[row.queue].add(row.name, data, {
      jobId: row.id,
      attempts: row.max_attempts,
      ...(row.delay_ms > 0 ? { delay: row.delay_ms } : {}),
    });
  }
}
