// What a processor is and what it gets besides its job: the contract between the worker's registry
// (index.ts), the processors it lists, and the tracking wrapper. Kept apart from the registry so a
// processor never imports the module that imports it.
import type { Job } from 'bullmq';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '#core/config/index.js';
import type { FlowEngine, FlowTx } from '#core/flows/engine.js';
import type { PublishMonitor } from '#core/slack/monitor-hub.js';
import type { RelayedJobData } from '#core/queues/relay.js';

/** What a processor gets besides its job. */
export interface ProcessorContext {
  pool: pg.Pool;
  log: Logger;
  config: Config;
  engine: FlowEngine;
  /** Sends frames to every open team-chat monitor. */
  publishMonitor: PublishMonitor;
  /**
   * The job's own flow transaction, given by `tracked` while it runs a job: `work` and the job
   * row's completion (with what `work` returns) commit together, one commit for the whole job.
   */
  jobTransaction?: <T>(work: (tx: FlowTx) => Promise<T>) => Promise<T>;
}

/** Runs `work` in the job's own transaction when the job is tracked, else in a flow transaction of its own. */
export function inJobTransaction<T>(context: ProcessorContext, work: (tx: FlowTx) => Promise<T>): Promise<T> {
  return context.jobTransaction ? context.jobTransaction(work) : context.engine.transaction(work);
}

/** Runs one job of a queue; throws to have BullMQ retry it. */
export type Processor = (job: Job<RelayedJobData>, context: ProcessorContext) => Promise<unknown>;

/** Runs once when a job has failed for the last time (its retries spent), e.g. to tell the flow. */
type OnExhausted = (job: Job<RelayedJobData>, context: ProcessorContext, error: Error) => Promise<void>;

/** How a queue's jobs are processed. */
export interface QueueProcessor {
  process: Processor;
  onExhausted?: OnExhausted;
  /**
   * Whether a job's row is claimed only when its work commits (decision 0060): true for work done
   * whole in the job's own transaction, which a duplicate delivery rolls back. Else it is claimed
   * (active, attempt counted) in a commit of its own before the processor runs.
   */
  claimsOnCompletion?: (job: Job<RelayedJobData>) => boolean;
}
