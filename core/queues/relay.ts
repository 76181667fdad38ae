import type { Job } from 'bullmq';
import type pg from 'pg';
import { ChannelListener } from '../db/channel-listener.js';
import { inTransaction } from '../db/transaction.js';
import type { Logger } from 'pino';
import { QUEUE_NAMES, type QueueName } from './names.js';
import { JOBS_CHANNEL, markJobsEnqueued } from './outbox.js';
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
/** How often the relay sweeps (pending rows, lost jobs, jobs BullMQ failed by itself). */
export const SWEEP_MS = 2_000;
/** How long an unfinished row goes unchanged before the sweep asks BullMQ about its job, and again after an answer. */
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
  /** When BullMQ last said it holds each stale row's job: asked again only after lostAfterMs. */
  private readonly heldAt = new Map<string, number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly queues: Queues,
    private readonly log: Pick<Logger, 'warn' | 'error'>,
    private readonly options: RelayOptions = {},
  ) {
    // a lost LISTEN connection is made again; until then the timed sweep still moves every row,
    // and once back a full pass runs for what was announced meanwhile
    this.listener = new ChannelListener(pool, log).on(JOBS_CHANNEL, { onNotify: () => this.kick(), onRelisten: () => this.kick(true) });
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

  /**
   * Runs a full pass (pending rows, then the reconcile sweep) after any pass under way, as the timer
   * does; resolves once it has run. What a sweep would do (bring a row back, add a job again) has
   * been done by then, so a test awaits it to see what a sweep leaves instead of waiting for one.
   */
  sweep(): Promise<void> {
    this.kick(true);
    return this.running;
  }

  // Passes run one after another; a burst of notifications collapses into the next pass.
  private kick(reconcile = false): void {
    if (this.stopped) return;
    this.running = this.running
      .then(async () => {
        // a row a process adds to BullMQ itself is written enqueued, so every pending row is the relay's
        await this.relayPending();
        if (reconcile) await this.reconcile();
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'outbox relay pass failed; will retry'));
  }

  /** Enqueues every pending row; returns how many were moved. */
  async relayPending(): Promise<number> {
    let moved = 0;
    for (;;) {
      // nothing is marked enqueued unless it reached Redis: on a failure the rows stay pending for the next pass
      const count = await inTransaction(this.pool, async (client) => {
        const claimed = await client.query<JobRow>(
          `SELECT id, queue, name, payload, max_attempts, ${DELAY_MS} FROM jobs
           WHERE status = 'pending' ORDER BY created_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        );
        for (const row of claimed.rows) await this.add(row);
        if (claimed.rowCount) {
          await markJobsEnqueued(
            client,
            claimed.rows.map((row) => row.id),
          );
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
   * The questions go out together (ioredis writes each command at once, one round trip for all),
   * and a row whose job BullMQ holds is asked about again only after lostAfterMs: a day-long
   * timer is not a question every sweep.
   */
  async reconcile(): Promise<number> {
    const lostAfterMs = this.options.lostAfterMs ?? LOST_AFTER_MS;
    const stale = await this.pool.query<{ id: string; queue: QueueName }>(
      `SELECT id, queue FROM jobs WHERE status IN ('enqueued', 'active') AND updated_at < now() - make_interval(secs => $1)`,
      [lostAfterMs / 1000],
    );
    const now = Date.now();
    const staleIds = new Set(stale.rows.map((row) => row.id));
    for (const id of this.heldAt.keys()) if (!staleIds.has(id)) this.heldAt.delete(id);
    const due = stale.rows.filter((row) => QUEUE_NAMES.includes(row.queue) && now - (this.heldAt.get(row.id) ?? -Infinity) >= lostAfterMs);
    const states = await Promise.all(due.map((row) => this.queues[row.queue].getJobState(row.id)));

    const lost: string[] = [];
    let restored = 0;
    let finalized = 0;
    for (const [index, row] of due.entries()) {
      const state = states[index];
      if (state === 'unknown') {
        lost.push(row.id);
        continue;
      }
      this.heldAt.set(row.id, now);
      if (state !== 'failed' || !this.options.onFailedInQueue) continue;
      const job: Job<RelayedJobData> | undefined = await this.queues[row.queue].getJob(row.id);
      if (!job) continue;
      await this.options.onFailedInQueue(row.queue, job);
      finalized += 1;
    }
    if (lost.length) {
      const rows = await this.pool.query<JobRow>(
        `SELECT id, queue, name, payload, max_attempts, ${DELAY_MS} FROM jobs WHERE id = ANY($1) AND status IN ('enqueued', 'active')`,
        [lost],
      );
      for (const row of rows.rows) await this.add(row);
      restored = rows.rows.length;
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
