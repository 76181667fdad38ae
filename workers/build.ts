import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '#core/config/index.js';
import { FlowEngine } from '#core/flows/engine.js';
import type { WriteVersions } from '#core/flows/flow-store.js';
import { redisPublisher } from '#core/flows/push.js';
import { directEnqueuer } from '#core/queues/direct.js';
import type { QueueName } from '#core/queues/names.js';
import { closeQueues, openQueues, type Queues } from '#core/queues/queues.js';
import { OutboxRelay, type RelayedJobData, type RelayOptions } from '#core/queues/relay.js';
import { monitorPublisher } from '#core/slack/monitor-hub.js';
import { processors } from './processors/index.js';
import type { ProcessorContext, QueueProcessor } from './processors/processor.js';
import { finalizeFailed, tracked } from './tracked.js';

/** How often BullMQ looks for jobs whose worker stopped renewing their lock: half the lock, at least 1 s. */
const stalledIntervalFor = (lockMs: number) => Math.max(1_000, Math.floor(lockMs / 2));

export interface WorkerSide {
  workers: Worker[];
  relay: OutboxRelay;
  queues: Queues;
  engine: FlowEngine;
  /** Waits until every worker is connected, then starts the relay. */
  start(): Promise<void>;
  /** Stops the relay, lets running jobs finish, closes the queues. */
  stop(): Promise<void>;
}

/**
 * The worker side of the system, as workers/main.ts runs it and the tests start it in-process:
 * one BullMQ worker per queue with its processor wrapped by `tracked` (the jobs table follows each
 * job), the flow engine the processors apply results through, and the outbox relay, which also
 * finalises a job BullMQ failed by itself (its worker died on it twice) so no row stays active.
 *
 * A job's lock lasts JOB_LOCK_MS and is renewed at half of it while the job runs; the stalled
 * check runs every half lock, so a job whose worker died is running again within about one and a
 * half locks (7.5 s with the default 5 s) once a worker is up.
 */
export function buildWorker(options: {
  config: Config;
  pool: pg.Pool;
  connection: Redis;
  log: Logger;
  queueNames?: QueueName[];
  overrides?: Partial<Record<QueueName, QueueProcessor>>;
  relayOptions?: RelayOptions;
  concurrency?: number;
  /** The machine versions flows are written at (the process's MachineFleet); default this build's. */
  writeVersions?: WriteVersions;
}): WorkerSide {
  const { config, pool, connection, log } = options;
  const queues = openQueues(connection, config.QUEUE_PREFIX);
  // a relay that cannot reach Redis keeps rows pending and says so; the connection's own errors would repeat it
  for (const queue of Object.values(queues))
    queue.on('error', (error) => log.debug({ err: error, queue: queue.name }, 'queue connection error'));
  const engine = new FlowEngine(
    pool,
    redisPublisher(connection, config.QUEUE_PREFIX),
    log,
    directEnqueuer(pool, queues),
    options.writeVersions,
  );
  const context: ProcessorContext = { pool, log, config, engine, publishMonitor: monitorPublisher(connection, config.QUEUE_PREFIX) };
  const served = new Map<QueueName, QueueProcessor>();
  for (const name of options.queueNames ?? (Object.keys(processors) as QueueName[])) {
    const processor = options.overrides?.[name] ?? processors[name];
    if (!processor) throw new Error(`no processor for the ${name} queue`);
    served.set(name, processor);
  }

  const workers = [...served].map(([name, processor]) => {
    const worker = new Worker(name, tracked(processor, context), {
      connection,
      prefix: config.QUEUE_PREFIX,
      concurrency: options.concurrency ?? config.WORKER_CONCURRENCY,
      lockDuration: config.JOB_LOCK_MS,
      stalledInterval: stalledIntervalFor(config.JOB_LOCK_MS),
    });
    worker.on('error', (error) => log.error({ err: error, queue: name }, 'worker error'));
    worker.on('failed', (job, error) => {
      log.warn({ queue: name, jobId: job?.id, err: error }, 'job failed');
      // BullMQ fails a job that stalled too often without running the processor: finalise it now
      // (for every other failure the processor's wrapper already has, and this does nothing)
      if (job?.deferredFailure)
        void finalizeFailed(processor, context, job, error).catch((failure: unknown) =>
          log.error({ err: failure, jobId: job.id }, 'could not finalise a failed job'),
        );
    });
    return worker;
  });

  const onFailedInQueue = async (queue: QueueName, job: Job<RelayedJobData>) => {
    const processor = served.get(queue);
    if (processor) await finalizeFailed(processor, context, job, new Error(job.failedReason || 'BullMQ failed the job'));
  };
  const relay = new OutboxRelay(pool, queues, log, { onFailedInQueue, ...options.relayOptions });

  return {
    workers,
    relay,
    queues,
    engine,
    async start() {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
      await relay.start();
    },
    async stop() {
      await relay.stop();
      // close() lets in-flight jobs finish; anything still running when the process dies is handed
      // back by BullMQ's stalled-job check, so nothing is lost
      await Promise.all(workers.map((worker) => worker.close()));
      await closeQueues(queues);
    },
  };
}
