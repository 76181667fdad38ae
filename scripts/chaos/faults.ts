import { Redis } from 'ioredis';
import pg from 'pg';
import { until } from '#test/until.js';
import type { ManagedProcess, ManagedRedis } from './processes.js';

/** What a fault can reach: the processes, Redis, the database, and a flow kept for the long job. */
interface FaultContext {
  server: ManagedProcess;
  worker: ManagedProcess;
  redis: ManagedRedis;
  pool: pg.Pool;
  databaseUrl: string;
  /** The flow set aside for the double kill, and its lead. */
  longJob: { flowId: string; leadId: string };
  /** Submits that flow's survey, which starts its grading job. */
  startLongJob: () => Promise<void>;
  /** Called at the fault's destructive moment: recovery is timed from the last one. */
  mark: () => void;
}

export interface Fault {
  name: string;
  inject: (context: FaultContext) => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process manager's restart: the process comes back a moment after it died. */
async function killAndRestart(process: ManagedProcess, mark: () => void): Promise<void> {
  mark();
  await process.kill();
  await sleep(500);
  await process.start();
}

/**
 * The faults of the run, in order. Each is injected while visitors are mid-journey; the harness
 * then measures how long until the whole path works again.
 */
export const FAULTS: Fault[] = [
  { name: 'SIGKILL the worker (a supervisor restarts it)', inject: ({ worker, mark }) => killAndRestart(worker, mark) },
  {
    name: 'SIGKILL the worker twice on the same long job',
    inject: async ({ worker, pool, databaseUrl, longJob, startLongJob, mark }) => {
      // the job waits on the lead's row while another connection holds it: long, on purpose. Grading
      // writes nothing on the lead, but its rows' foreign keys take KEY SHARE on it, which FOR UPDATE
      // blocks; so would the survey's own job row, so the lead is held once the job exists and
      // before the worker (frozen meanwhile) can run it
      const blocker = new pg.Client(databaseUrl);
      await blocker.connect();
      try {
        worker.signal('SIGSTOP');
        try {
          await startLongJob();
          await blocker.query('BEGIN');
          await blocker.query('SELECT 1 FROM leads WHERE lead_id = $1 FOR UPDATE', [longJob.leadId]);
        } finally {
          worker.signal('SIGCONT');
        }
        // a query that fails (the database restarting) is simply not there yet
        const attemptsAre = (n: number) => async () => {
          const job = await pool
            .query<{ attempts: number; status: string }>("SELECT attempts, status FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [
              longJob.flowId,
            ])
            .catch(() => null);
          return job?.rows[0]?.attempts === n && job.rows[0]?.status === 'active';
        };
        const notSetUp = 'the fault could not be set up in time';
        await until(attemptsAre(1), 30_000, notSetUp);
        await killAndRestart(worker, mark);
        await until(attemptsAre(2), 30_000, notSetUp);
        await killAndRestart(worker, mark);
      } finally {
        await blocker.query('ROLLBACK').catch(() => {});
        await blocker.end();
      }
    },
  },
  {
    name: 'SIGKILL Redis and start it again',
    inject: ({ redis, mark }) => {
      mark();
      return redis.killAndRestart(500);
    },
  },
  {
    name: 'FLUSHALL on Redis (its data lost)',
    inject: async ({ redis, mark }) => {
      const client = new Redis(redis.url);
      try {
        mark();
        await client.flushall();
      } finally {
        client.disconnect();
      }
    },
  },
  {
    name: "terminate the app's PostgreSQL connections in use",
    inject: async ({ pool, mark }) => {
      mark();
      await pool.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hf-funnel'",
      );
    },
  },
  { name: 'SIGKILL the server (a supervisor restarts it)', inject: ({ server, mark }) => killAndRestart(server, mark) },
];
