import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { until } from '#test/until.js';
import type { ManagedProcess, ManagedRedis } from './processes.js';

/** What a fault can reach: the processes, Redis, the database, and a flow kept for the long job. */
interface FaultContext {
  servers: ManagedProcess[];
  workers: ManagedProcess[];
  /** The bundles a rolling deploy moves to (next-build.ts); only a run with several servers has them. */
  nextBuild: { server: string; worker: string } | null;
  redis: ManagedRedis;
  pool: pg.Pool;
  databaseUrl: string;
  /** The BullMQ key prefix of the run's processes. */
  queuePrefix: string;
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
  /** Undoes what the fault left broken, once its recovery is timed (a killed server left down meanwhile). */
  restore?: (context: FaultContext) => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process manager's restart: the processes come back a moment after they died. */
async function killAndRestart(processes: ManagedProcess[], mark: () => void): Promise<void> {
  mark();
  await Promise.all(processes.map((process) => process.kill()));
  await sleep(500);
  await Promise.all(processes.map((process) => process.start()));
}

/**
 * The faults of the run, in order. Each is injected while visitors are mid-journey; the harness
 * then measures how long until the whole path works again.
 */
export const FAULTS: Fault[] = [
  { name: 'SIGKILL a worker (a supervisor restarts it)', inject: ({ workers, mark }) => killAndRestart(workers.slice(0, 1), mark) },
  {
    // on one worker: the others are stopped (gracefully, their jobs finished) for the while, so the
    // long job is in its hands and the kills fail no job but the ones it holds
    name: 'SIGKILL a worker twice on the same long job',
    inject: async ({ workers: [worker, ...others], pool, databaseUrl, redis, queuePrefix, longJob, startLongJob, mark }) => {
      // the job waits on the lead's row while another connection holds it: long, on purpose. Grading
      // writes nothing on the lead, but its rows' foreign keys take KEY SHARE on it, which FOR UPDATE
      // blocks; so would the survey's own job row, so the lead is held once the job exists and
      // before the worker (frozen meanwhile) can run it
      await Promise.all(others.map((other) => other.stop()));
      const blocker = new pg.Client(databaseUrl);
      await blocker.connect();
      const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const grading = new Queue('grading', { connection, prefix: queuePrefix });
      try {
        worker!.signal('SIGSTOP');
        try {
          await startLongJob();
          await blocker.query('BEGIN');
          await blocker.query('SELECT 1 FROM leads WHERE lead_id = $1 FOR UPDATE', [longJob.leadId]);
        } finally {
          worker!.signal('SIGCONT');
        }
        const row = await pool.query<{ id: string }>("SELECT id FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [longJob.flowId]);
        // the n-th attempt running: BullMQ counts the starts (a grading job's row is claimed only
        // when its work commits, decision 0060); a read that fails is simply not there yet
        const attemptsAre = (n: number) => async () => {
          const job = await grading.getJob(row.rows[0]!.id).catch(() => undefined);
          return job?.attemptsStarted === n && (await job.getState().catch(() => null)) === 'active';
        };
        const notSetUp = 'the fault could not be set up in time';
        await until(attemptsAre(1), 30_000, notSetUp);
        await killAndRestart([worker!], mark);
        await until(attemptsAre(2), 30_000, notSetUp);
        await killAndRestart([worker!], mark);
      } finally {
        await blocker.query('ROLLBACK').catch(() => {});
        await blocker.end();
        await grading.close().catch(() => {});
        connection.disconnect();
        await Promise.all(others.map((other) => other.start()));
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
  { name: 'SIGKILL a server (a supervisor restarts it)', inject: ({ servers, mark }) => killAndRestart(servers.slice(0, 1), mark) },
];

/** The faults only a run with several servers has: one server gone, and a rolling deploy. */
export const SEVERAL_SERVERS_FAULTS: Fault[] = [
  {
    // the proxy sends the traffic to the others; the server comes back only after recovery is timed
    name: 'SIGKILL one server and leave it down (the proxy sends traffic to the others)',
    inject: async ({ servers, mark }) => {
      mark();
      await servers.at(-1)!.kill();
    },
    restore: ({ servers }) => servers.at(-1)!.start(),
  },
  {
    name: 'rolling deploy: each worker, then each server, restarted in turn on a build whose assessment-flow machine is one version up',
    inject: async ({ servers, workers, nextBuild, mark }) => {
      if (!nextBuild) throw new Error('a rolling deploy needs the next build');
      // workers first, as docs/operations.md advises; the step is reversible, so the new processes
      // write flows at the old version until the last old one has gone (decision 0057) and no old
      // process meets a newer flow. Recovery is timed from the last step.
      for (const process of [
        ...workers.map((worker) => [worker, nextBuild.worker] as const),
        ...servers.map((server) => [server, nextBuild.server] as const),
      ]) {
        mark();
        await process[0].deploy(process[1]);
      }
    },
  },
];
