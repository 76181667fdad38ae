import type { Job } from 'bullmq';
import type pg from 'pg';
import { ChannelListener } from '../db/channel-listener.js';
import { inTransaction } from '../db/transaction.js';
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
/** How often the relay sweeps (pending rows, lost jobs, jobs BullMQ failed by itself). */
export const SWEEP_MS = 2_000;
/** How long an unfinished row goes unchanged before the sweep asks BullMQ about its job. */
const LOST_AFTER_MS = 5_000;
const DELAY_MS = 'GREATEST(0, floor(extract(epoch FROM run_after - now()) * 1000))::int AS delay_ms';

/** Told of a job BullMQ failed without its processor finishing it (a worker died on it twice). */
type OnFailedInQueue = (queue: QueueName, job: Job<RelayedJobData>) => Promise<void>;

export interface RelayOptions {
  sweepMs?: number;
  lostAfterMs?: number;
  onFailedInQueue?: OnFailedInQueue;
}

/**
 * Moves outbox rows into BullMQ with jobId = row id. Rows are claimed with FOR UPDATE SKIP LOCKED,
 * so any number of relays can run. The reconcile sweep keeps the table and BullMQ in step: a row
 * whose BullMQ job has vanished (Redis lost its data) is added again, and one whose job BullMQ
 * failed by itself is finalised through `onFailedInQueue`. Adding is idempotent while BullMQ still
 * holds the job id.
 */
export class OutboxRelay {
  private readonly listener: ChannelListener;
  private timer?: NodeJS.Timeout;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly queues: Queues,
    private readonly log: Pick<Logger, 'warn' | 'error'>,
    private readonly options: RelayOptions = {},
  ) {
    // a lost LISTEN connection is made again; until then the timed sweep still moves every row,
    // and once back a full pass runs for what was announced meanwhile
    this.listener = new ChannelListener(pool, JOBS_CHANNEL, { onNotify: () => this.kick(), onRelisten: () => this.kick(true), log });
  }

  /** Listens for new rows and sweeps on a timer until stop(). */
  async start(): Promise<void> {
    await this.listener.start();
    this.timer = setInterval(() => this.kick(true), this.options.sweepMs ?? SWEEP_MS);
    this.kick(true);
  }

  /** Stops listening and waits for a relay pass in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.listener.stop();
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
      // nothing is marked enqueued unless it reached Redis: on a failure the rows stay pending for the next pass
      const count = await inTransaction(this.pool, async (client) => {
        const claimed = await client.query<JobRow>(
          `SELECT id, queue, name, payload, max_attempts, ${DELAY_MS} FROM jobs
           WHERE status = 'pending' AND created_at <= now() - make_interval(secs => $1)
           ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
          [minAgeMs / 1000],
        );
        for (const row of claimed.rows) await this.add(row);
        if (claimed.rowCount) {
          await client.query("UPDATE jobs SET status = 'enqueued', enqueued_at = now() WHERE id = ANY($1)", [
            claimed.rows.map((row) => row.id),
          ]);
        }
        return claimed.rowCount ?? 0;
      });
      moved += count;
      if (count < BATCH) return moved;
    }
  }

  /**
   * Asks BullMQ about unfinished rows that have not changed for a while: re-adds those whose job
   * no longer exists, and finalises those BullMQ failed by itself; returns how many were restored.
   */
  async reconcile(): Promise<number> {
    const stale = await this.pool.query<JobRow>(
      `SELECT id, queue, name, payload, max_attempts, ${DELAY_MS} FROM jobs
       WHERE status IN ('enqueued', 'active') AND updated_at < now() - make_interval(secs => $1)`,
      [(this.options.lostAfterMs ?? LOST_AFTER_MS) / 1000],
    );
    let restored = 0;
    let finalized = 0;
    for (const row of stale.rows) {
      if (!QUEUE_NAMES.includes(row.queue)) continue;
      const job: Job<RelayedJobData> | undefined = await this.queues[row.queue].getJob(row.id);
      if (!job) {
        await this.add(row);
        restored += 1;
      } else if (this.options.onFailedInQueue && (await job.isFailed())) {
        await this.options.onFailedInQueue(row.queue, job);
        finalized += 1;
      }
    }
    if (restored) this.log.warn({ restored }, 'outbox relay restored jobs that Redis had lost');
    if (finalized) this.log.warn({ finalized }, 'outbox relay finalised jobs BullMQ failed by itself');
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
