import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { saveIntegration } from '#core/integrations/settings.js';
import { createAdmin } from '#server/auth/admin-users.js';
import { createSession, csrfTokenFor, SESSION_COOKIE } from '#server/auth/sessions.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { SURVEYS } from '#test/journey.js';
import { until } from '#test/until.js';
import { seedSurveyFlows } from '../bench/seed.js';
import { benchServices } from '../bench/services.js';
import { ensureServerBuilt } from '../lib/ensure.mjs';
import { freePort } from '../services/free-port.js';
import { Balancer } from './balancer.js';
import { FAULTS, SEVERAL_SERVERS_FAULTS, type Fault } from './faults.js';
import { addressOf, runJourney, type JourneyOutcome } from './journeys.js';
import { buildNextVersion } from './next-build.js';
import { ManagedProcess, ManagedRedis } from './processes.js';
import { watchFlows } from './sockets.js';
import { verify } from './verify.js';

export interface ChaosOptions {
  flows: number;
  concurrency: number;
  /** Server processes (default 1); with several, the run's own balancer (balancer.ts) fronts them. */
  servers?: number;
  /** Worker processes (default 1). */
  workers?: number;
  /** A migrated database to run on (the tests' own); default: a fresh one, as the benchmarks make. */
  databaseUrl?: string;
  say?: (line: string) => void;
}

export interface ChaosReport {
  flows: number;
  /** Per fault: recovery time, 5xx answers while it lasted, journeys under way when it began. */
  faults: Array<{ name: string; recoveryMs: number; serverErrors: number[]; underWay: number }>;
  /** 5xx answers visitors got outside any fault. */
  serverErrorsOutsideFaults: number;
  /** The longest a visitor waited from submitting the survey until the result showed (ms). */
  longestResultWaitMs: number;
  lost: string[];
  duplicated: string[];
  stuck: string[];
  crashes: string[];
  /** Failed jobs the coach ran again from the admin area at the end (the double-killed job). */
  retriedByCoach: number;
  summary: string;
  ok: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The fault run (docs/operations.md, "The fault run"): real server and worker processes (the bundles
 * `npm start` runs), a PostgreSQL database and a redis-server of the run's own, `flows` visitors
 * walking every tier's path (deposits, paid homework, free resources, the community) plus contact
 * messages and signed webhooks, while the faults of faults.ts are injected one after another.
 * After each fault the harness sends a contact message and times how long until its two emails are
 * recorded: the recovery time of the whole path (HTTP, PostgreSQL, outbox, Redis, worker). Then it
 * lets the system settle, runs the coach's Retry all failed, lets visitors whose flow waited on a
 * failed job finish, and checks everything from PostgreSQL.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const say = options.say ?? (() => {});
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    const runId = randomBytes(4).toString('hex');
    const databaseUrl = options.databaseUrl ?? (await benchServices(`hf_chaos_${runId}`, cleanups)).databaseUrl;
    const redisDir = mkdtempSync(path.join(tmpdir(), 'hf-chaos-redis-'));
    const redis = await ManagedRedis.start(redisDir);
    cleanups.push(async () => {
      await redis.stop();
      rmSync(redisDir, { recursive: true, force: true });
    });

    // webhook deliveries by event id: at least once by contract, receivers drop repeats by the id
    const received = new Set<string>();
    let redelivered = 0;
    const receiver = http.createServer((request, response) => {
      const id = String(request.headers['x-hf-event-id'] ?? '');
      if (received.has(id)) redelivered += 1;
      received.add(id);
      request.resume();
      request.on('end', () => response.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

    const pool = new pg.Pool({ connectionString: databaseUrl, max: 6 });
    cleanups.push(() => pool.end());
    await ensureServerBuilt();
    const serverCount = options.servers ?? 1;
    const workerCount = options.workers ?? 1;
    const ports = await Promise.all(Array.from({ length: serverCount }, () => freePort()));
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `hf-chaos-${runId}`,
      // each visitor comes from an address of its own, through one trusted proxy
      TRUST_PROXY_HOPS: '1',
      LOG_LEVEL: 'warn',
      PG_POOL_MAX: '20',
      WORKER_CONCURRENCY: '10',
      ADMIN_EMAIL: 'chaos@example.com',
      ADMIN_PASSWORD: 'chaos-admin-password',
      // the webhook receiver listens on loopback, which outgoing webhooks may reach only when listed
      WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1',
    };
    const named = (kind: string, index: number, count: number) => (count > 1 ? `${kind} ${index + 1}` : kind);
    const servers = ports.map(
      (port, index) => new ManagedProcess(named('server', index, serverCount), 'dist/server/main.mjs', { ...env, PORT: String(port) }),
    );
    const workers = Array.from(
      { length: workerCount },
      (_, index) => new ManagedProcess(named('worker', index, workerCount), 'dist/workers/main.mjs', env),
    );
    cleanups.push(...[...servers, ...workers].map((process) => () => process.stop()));
    // one at a time: the first migrates the database
    for (const process of [...servers, ...workers]) await process.start();
    let base = `http://127.0.0.1:${ports[0]}`;
    let nextBuild: { server: string; worker: string; version: number } | null = null;
    const faultList: Fault[] = [...FAULTS];
    if (serverCount > 1) {
      const balancer = new Balancer(() => ports);
      base = `http://127.0.0.1:${await balancer.listen()}`;
      cleanups.push(() => balancer.close());
      say('building the next version for the rolling deploy...');
      nextBuild = await buildNextVersion();
      // first, while journeys are surely under way: flows begun on the old version finish on the new
      faultList.unshift(...SEVERAL_SERVERS_FAULTS);
    }

    // the coach of the run: points the automation and team-chat webhooks at the run's receiver (as
    // the Integrations screen saves them), and retries the failed jobs at the end
    await createAdmin(pool, `coach-${runId}@example.com`, 'a long coach password');
    const coach = await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [`coach-${runId}@example.com`]);
    const coachId = coach.rows[0]!.id;
    for (const key of ['automation', 'team_chat'] as const) {
      await saveIntegration(pool, key, { enabled: true, value: `${receiverUrl}/${key}` }, coachId, {
        allowedPrivate: [env.WEBHOOK_ALLOWED_PRIVATE_ADDRESSES],
      });
    }

    say(`seeding ${options.flows} visitors at the survey...`);
    const seeded = await seedSurveyFlows(pool, options.flows + 1, runId);
    const journeys = seeded.slice(0, options.flows);
    const longJob = seeded[options.flows]!;

    // contact messages: a few during the run, and one after each fault to time its recovery
    const contactIds: string[] = [];
    let contactCount = 0;
    const sendContact = async (deadline: number): Promise<string> => {
      const address = addressOf(1_000_000 + contactCount++);
      for (;;) {
        try {
          const response = await fetch(`${base}/api/functions/send-contact-email`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
            body: JSON.stringify({
              name: 'Chaos Visitor',
              email: `contact-${runId}-${contactCount}@example.com`,
              message: 'Can we talk about coaching for my team?',
            }),
            signal: AbortSignal.timeout(10_000),
          });
          if (response.ok) {
            const { id } = (await response.json()) as { id: string };
            contactIds.push(id);
            return id;
          }
        } catch {
          // the server is down or restarting: try again
        }
        if (Date.now() > deadline) throw new Error('no contact message could be sent');
        await sleep(200);
      }
    };
    const emailsRecorded = async (contactId: string) =>
      (
        await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM email_outbox WHERE contact_id = $1 AND status IN ('sent', 'recorded')",
          [contactId],
        )
      ).rows[0]!.n === 2;

    // 5xx answers visitors get, by the fault under way when they came
    const serverErrors = new Map<string, number[]>();
    let currentFault = '';
    const onServerError = (status: number) => serverErrors.set(currentFault, [...(serverErrors.get(currentFault) ?? []), status]);
    /** "3 (503 x 3)": how many 5xx answers, by status. */
    const describeErrors = (statuses: number[]) => {
      const byStatus = new Map<number, number>();
      for (const status of statuses) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      const parts = [...byStatus].map(([status, count]) => `${status} x ${count}`);
      return `${statuses.length}${parts.length ? ` (${parts.join(', ')})` : ''}`;
    };
    const sockets = watchFlows(base, journeys.slice(0, Math.min(journeys.length, 40)), 3_000_000);
    cleanups.push(() => Promise.resolve(sockets.close()));

    say(`running ${options.flows} journeys with ${options.concurrency} at a time...`);
    const deadline = Date.now() + Math.max(240_000, options.flows * 400);
    const outcomes: JourneyOutcome[] = [];
    let next = 0;
    const lanes = Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < journeys.length) {
          const index = next++;
          outcomes.push(await runJourney(base, journeys[index]!, index, deadline, onServerError));
        }
      }),
    );

    const faults: ChaosReport['faults'] = [];
    let faultAt = 0;
    const context = {
      mark: () => {
        faultAt = Date.now();
      },
      servers,
      workers,
      nextBuild,
      redis,
      pool,
      databaseUrl,
      queuePrefix: env.QUEUE_PREFIX,
      longJob: {
        flowId: longJob.flowId,
        leadId: (await pool.query<{ lead_id: string }>('SELECT lead_id FROM flows WHERE id = $1', [longJob.flowId])).rows[0]!.lead_id,
      },
      startLongJob: async () => {
        const headers = {
          cookie: `${VISITOR_COOKIE}=${longJob.visitorCookie}`,
          'x-forwarded-for': addressOf(2_000_000),
          'content-type': 'application/json',
        };
        const sent = await fetch(`${base}/api/flows/${longJob.flowId}/events`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ event: { type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call } }),
        });
        if (!sent.ok) throw new Error(`the long job's survey was refused: ${sent.status}`);
      },
    };
    await sleep(3_000);
    for (const fault of faultList) {
      say(`fault: ${fault.name}`);
      currentFault = fault.name;
      const underWay = next - outcomes.length;
      await fault.inject(context);
      const probe = await sendContact(faultAt + 60_000);
      while (!(await emailsRecorded(probe).catch(() => false))) {
        if (Date.now() - faultAt > 60_000) break;
        await sleep(100);
      }
      const recoveryMs = Date.now() - faultAt;
      await fault.restore?.(context);
      currentFault = '';
      faults.push({ name: fault.name, recoveryMs, serverErrors: serverErrors.get(fault.name) ?? [], underWay });
      say(`  recovered in ${(recoveryMs / 1000).toFixed(1)} s`);
      // between faults, some ordinary contact messages
      await sendContact(Date.now() + 30_000);
      await sleep(2_000);
    }
    await lanes;
    say(`journeys done: ${outcomes.filter((outcome) => outcome.done).length} of ${journeys.length} at their final step`);

    // let the jobs in flight finish, then the coach runs the failed ones again from the admin
    const settle = async () => {
      const until = Date.now() + 90_000;
      while (Date.now() < until) {
        const open = await pool.query<{ n: number }>(
          // a timer not yet due (a reminder a day away) waits by design, as verify.ts counts it
          "SELECT count(*)::int AS n FROM jobs WHERE status IN ('pending', 'enqueued', 'active') AND NOT (queue = 'timers' AND run_after > now())",
        );
        if (open.rows[0]!.n === 0) return;
        await sleep(500);
      }
    };
    await settle();
    // why the jobs the coach is about to retry failed (the double kill's, and any other)
    const failedJobs = await pool.query<{ queue: string; error: string; n: number }>(
      "SELECT queue, left(coalesce(last_error, ''), 100) AS error, count(*)::int AS n FROM jobs WHERE status = 'failed' GROUP BY 1, 2 ORDER BY 3 DESC",
    );
    const failedLine = failedJobs.rows.map((row) => `${row.n} ${row.queue} (${row.error})`).join('; ');
    const { token } = await createSession(pool, coachId);
    const retry = await fetch(`${base}/api/admin/jobs/retry-failed`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${token}`, 'x-csrf-token': csrfTokenFor(token) },
    });
    const retriedByCoach = retry.ok ? ((await retry.json()) as { retried: number }).retried : 0;
    await settle();

    // A job active at both kills of the double kill fails like the long job, and its flow waits for
    // the coach's retry (by design). Visitors who gave up meanwhile come back and finish.
    const resumeDeadline = Date.now() + 60_000;
    let resumed = 0;
    // side by side: one that cannot finish must not use up the others' time
    await Promise.all(
      [...outcomes.entries()].map(async ([at, outcome]) => {
        if (outcome.done) return;
        const index = journeys.findIndex((flow) => flow.flowId === outcome.flowId);
        outcomes[at] = await runJourney(base, journeys[index]!, index, resumeDeadline, onServerError);
        if (outcomes[at].done) resumed += 1;
      }),
    );

    const longJobRow = await pool.query<{ attempts: number; last_error: string | null; status: string }>(
      "SELECT attempts, last_error, status FROM jobs WHERE flow_id = $1 AND queue = 'grading'",
      [longJob.flowId],
    );
    say(`the double-killed job: ${JSON.stringify(longJobRow.rows[0])}`);
    const findings = await verify(pool, [...journeys.map((flow) => flow.flowId), longJob.flowId], contactIds, received);
    for (const outcome of outcomes) {
      if (!outcome.done)
        findings.lost.push(
          `journey ${outcome.flowId} (${outcome.path}) ended at ${outcome.state}${outcome.lastRefusal ? `; last refusal: ${outcome.lastRefusal}` : ''}`,
        );
    }
    // every socket open and subscribed again after the last fault
    await until(sockets.allSubscribed, 20_000, '').catch(() => {});
    const socketReport = sockets.report();
    if (socketReport.subscribed < socketReport.sockets)
      findings.lost.push(`${socketReport.sockets - socketReport.subscribed} of ${socketReport.sockets} sockets never reconnected`);
    // after a rolling deploy every flow, begun before it or not, is on the new version
    let versionLine = '';
    if (nextBuild) {
      const versions = await pool.query<{ machine_version: number; n: number }>(
        'SELECT machine_version, count(*)::int AS n FROM flows WHERE id = ANY($1::uuid[]) GROUP BY 1',
        [journeys.map((flow) => flow.flowId)],
      );
      for (const row of versions.rows)
        if (row.machine_version !== nextBuild.version)
          findings.stuck.push(`${row.n} flows still at machine version ${row.machine_version}`);
      versionLine = `  after the rolling deploy: ${versions.rows.map((row) => `${row.n} flows at machine version ${row.machine_version}`).join(', ')}`;
    }
    const crashes = [...servers, ...workers].flatMap((process) => process.crashes);
    const longestResultWaitMs = Math.max(0, ...outcomes.map((outcome) => outcome.resultWaitMs ?? 0));
    const serverErrorsOutsideFaults = (serverErrors.get('') ?? []).length;
    const summary = [
      `${options.flows} flows, ${faults.length} faults, lost ${findings.lost.length}, duplicated ${findings.duplicated.length}, stuck ${findings.stuck.length}, crashes ${crashes.length}`,
      `  ${serverCount} server(s) and ${workerCount} worker(s)${serverCount > 1 ? " behind the run's balancer" : ''}`,
      ...faults.map(
        (fault) =>
          `  ${fault.name}: recovered in ${(fault.recoveryMs / 1000).toFixed(1)} s, ${fault.underWay} journeys under way, 5xx answers meanwhile: ${describeErrors(fault.serverErrors)}`,
      ),
      `  5xx answers outside the faults: ${serverErrorsOutsideFaults}; longest wait for a result: ${(longestResultWaitMs / 1000).toFixed(1)} s`,
      `  ${socketReport.sockets} sockets held through the run: ${socketReport.subscribed} subscribed at the end, ${socketReport.reconnects} reconnects, ${socketReport.pushes} pushes received (${socketReport.withPushes} sockets had at least one)`,
      ...(versionLine ? [versionLine] : []),
      `  ${contactIds.length} contact messages, ${received.size} webhook events received (${redelivered} delivered again, which receivers drop by event id), ${retriedByCoach} failed job(s) retried by the coach, ${resumed} journey(s) finished after that retry`,
      `  requests retried by visitors: ${outcomes.reduce((sum, outcome) => sum + outcome.retries, 0)}`,
      ...(failedLine ? [`  failed jobs before the coach's retry: ${failedLine}`] : []),
    ].join('\n');
    const ok =
      !findings.lost.length &&
      !findings.duplicated.length &&
      !findings.stuck.length &&
      !crashes.length &&
      !serverErrorsOutsideFaults &&
      faults.every((fault) => fault.recoveryMs < 10_000);
    return {
      flows: options.flows,
      faults,
      serverErrorsOutsideFaults,
      longestResultWaitMs,
      ...findings,
      crashes,
      retriedByCoach,
      summary,
      ok,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  }
}
