import type { Job } from 'bullmq';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { QueueName } from '../../server/queues/names.js';

/** What a processor gets besides its job. */
export interface ProcessorContext {
  pool: pg.Pool;
  log: Logger;
}

/** Runs one job of a queue; throws to have BullMQ retry it. */
export type Processor = (job: Job, context: ProcessorContext) => Promise<unknown>;

/** The processor of each queue this worker process serves. */
export const processors: Partial<Record<QueueName, Processor>> = {};
