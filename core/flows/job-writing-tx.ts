import type pg from 'pg';
import type { NewJob } from '../queues/outbox.js';

/**
 * What an effect or a lead event's webhooks use of the event's transaction: its connection and its
 * outbox. FlowTx (engine.ts) is one; naming the shape here keeps the modules FlowTx calls from
 * importing the engine back.
 */
export interface JobWritingTx {
  readonly client: pg.PoolClient;
  insertJob(job: NewJob): Promise<string>;
}
