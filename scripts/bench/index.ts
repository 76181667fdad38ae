/*
 * npm run bench [-- --flows 10000 --concurrency 50 --worker-concurrency 25 --profile DIR]
 *
 * Measures, in one run on this machine: (a) a raw BullMQ round trip, (c) the same hops as (b)
 * written bare (scripts/bench/bare/: a Fastify route writing an event and a job row in one
 * transaction and adding the BullMQ job, a worker writing one result row and publishing on Redis, a
 * websocket forwarding the push; the limit of this architecture here) and (b) this product's path
 * from a submitted survey to the GRADED push on the websocket, each at 1 and at N concurrent flows
 * (the loaded half measured in rounds of (c) and (b) taken in turns, so both see the machine alike),
 * with p50/p99 latency, throughput and the ratios b/a and b/c; then the resident memory of the
 * server and the worker process after 5k and after 10k flows (and of the bare ones after theirs);
 * and (d) the coach's re-grade of every graded lead under a proposed rule set (dry run, apply,
 * undo); and (e) requests per second of the product's /healthz, home page and public config
 * against a bare Fastify route in the same run; and the CPU one PostgreSQL round trip costs here
 * (round-trip.ts), the least any statement of a flow costs; the server's and the worker's read and
 * write system calls per flow for (c) and (b) (syscalls.ts); and, where PostgreSQL loads
 * pg_stat_statements, its own time per graded flow by statement (statements.ts). It prints the
 * flow's cost against issue 30's targets (scripts/bench/targets.ts: ratios to (c) of the same run;
 * decision 0042) last; it asserts nothing. With --profile, the product's server and worker write
 * V8 CPU profiles (.cpuprofile, for Chrome's DevTools) into DIR.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Redis } from 'ioredis';
import { DEFAULT_GRADING_RULES } from '#machines/grading/rules.js';
import { applyRules, dryRun, undoLastApplication } from '#core/grading/regrade.js';
import { ensureServerBuilt, ensureWebBuilt } from '../lib/ensure.mjs';
import { spawnBundle, stopChild, waitForReady } from '../services/child.js';
import { freePort } from '../services/free-port.js';
import { adminScale } from './admin-scale.js';
import { bareFlows, startBareProcesses } from './bare/client.js';
import { bullmqBaseline } from './baseline.js';
import { cpuLine, cpuOverRounds, cpuSpent, readCpu, systemCpu, type CpuReading } from './cpu.js';
import { gradedFlows } from './flow-path.js';
import { roundTripCost, roundTripLine } from './round-trip.js';
import { seedSurveyFlows } from './seed.js';
import { servingLine, servingRates } from './serving.js';
import { statementTimes } from './statements.js';
import { callCounter, readCalls } from './syscalls.js';
import { benchServices, deleteRunKeys, productEnv } from './services.js';
import { combineRuns, formatRuns, type RunStats } from './stats.js';
import { flowCostTargets } from './targets.js';

const { values: args } = parseArgs({
  options: {
    flows: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '50' },
    'worker-concurrency': { type: 'string', default: '25' },
    profile: { type: 'string' },
    // the admin at scale (admin-scale.ts): `--only admin` runs it alone
    only: { type: 'string' },
    'admin-leads': { type: 'string', default: '100000' },
    'admin-requests': { type: 'string', default: '20' },
  },
});
if (args.only === 'admin') {
  process.stdout.write(await adminScale({ leads: Number(args['admin-leads']), requests: Number(args['admin-requests']) }));
  process.exit(0);
}
const totalFlows = Number(args.flows);
const concurrency = Number(args.concurrency);
const workerConcurrency = Number(args['worker-concurrency']);
const SERIAL = Math.min(300, Math.floor(totalFlows / 10));
/** The measured half of (c)'s and (b)'s flows is taken in this many rounds of each, in turns. */
const ROUNDS = 4;

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024;
}

/**
 * Waits (at most 2 minutes) until no job that is due is left unfinished: what a run queued behind
 * its pushes (results emails, reveal timers) is done, so the CPU it cost is counted with the run.
 * Timers due later (a follow-up a day on) are not waited for.
 */
async function settleQueues(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const left = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs
       WHERE status IN ('pending', 'enqueued', 'active') AND coalesce(run_after, created_at) <= now()`,
    );
    if (left.rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.stdout.write('jobs still unfinished after 2 minutes; CPU counted as it stands\n');
}

/** The bench database's transaction and row counters (PostgreSQL's statistics, flushed within a second). */
async function databaseWrites(pool: pg.Pool): Promise<Record<string, number>> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT xact_commit AS commits, xact_rollback AS rollbacks, tup_inserted AS inserted, tup_updated AS updated,
            tup_fetched AS fetched
     FROM pg_stat_database WHERE datname = current_database()`,
  );
  return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
}

/** Adds one round's counter increases to `total`. */
function addWrites(total: Record<string, number>, before: Record<string, number>, after: Record<string, number>): void {
  for (const key of Object.keys(before)) total[key] = (total[key] ?? 0) + after[key]! - before[key]!;
}

function writesPerFlow(total: Record<string, number>, flows: number): string {
  return Object.entries(total)
    .map(([key, value]) => `${key} ${(value / flows).toFixed(1)}`)
    .join(', ');
}

const cleanups: Array<() => Promise<unknown>> = [];
try {
  const runId = randomBytes(4).toString('hex');
  const prefix = `hf-bench-${runId}`;
  const { databaseUrl, redisUrl } = await benchServices(`hf_bench_${runId}`, cleanups);

  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  cleanups.push(async () => {
    await deleteRunKeys(redis, prefix);
    redis.disconnect();
  });

  const port = await freePort();
  const env = {
    ...productEnv({ port, databaseUrl, redisUrl, queuePrefix: prefix }),
    WORKER_CONCURRENCY: String(workerConcurrency),
    PG_POOL_MAX: '20',
    // each simulated visitor comes from an address of its own (X-Forwarded-For), as real ones do
    TRUST_PROXY_HOPS: '1',
  };
  // the site too: (e) serves its pages
  ensureWebBuilt();
  await ensureServerBuilt();
  // the processes as `npm start` runs them: bundled JavaScript under plain Node
  const nodeArgs = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [];
  const server = spawnBundle('dist/server/main.mjs', env, 'inherit', nodeArgs);
  cleanups.push(() => stopChild(server, 10_000));
  const worker = spawnBundle('dist/workers/main.mjs', env, 'inherit', nodeArgs);
  cleanups.push(() => stopChild(worker, 10_000));
  await Promise.all([waitForReady(server, 'server'), waitForReady(worker, 'worker')]);
  const base = `http://127.0.0.1:${port}`;

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  cleanups.push(() => pool.end());
  process.stdout.write(`seeding ${totalFlows} flows at the survey...\n`);
  const flows = await seedSurveyFlows(pool, totalFlows, runId);

  process.stdout.write('measuring (a) the raw BullMQ baseline...\n');
  const baseline = await bullmqBaseline(
    redis,
    `${prefix}-baseline`,
    [
      { count: SERIAL, concurrency: 1 },
      { count: SERIAL * 10, concurrency },
    ],
    workerConcurrency,
  );

  // (c) and (b) are warmed on the first half of their flows, then measured on the second half in
  // rounds taken in turns, so a drift of the machine's speed (it moves by a third within minutes on
  // this box) falls on both alike; each runs while the other's processes sit idle
  const half = Math.floor(totalFlows / 2);
  process.stdout.write('measuring (c) the same hops written bare...\n');
  const bareBase = `http://127.0.0.1:${await freePort()}`;
  const bareProcesses = await startBareProcesses({ ...env, PORT: new URL(bareBase).port, QUEUE_PREFIX: `${prefix}-bare` });
  cleanups.push(bareProcesses.stop);
  const bareLabel = '(c) bare POST -> push on socket';
  const bareParts = { server: bareProcesses.server.pid!, worker: bareProcesses.worker.pid! };
  const bare: RunStats[] = [];
  bare.push(await bareFlows(bareBase, bareLabel, SERIAL, 1));
  bare.push(await bareFlows(bareBase, bareLabel, half - SERIAL, concurrency, SERIAL));

  // (e) serving, while both servers sit idle: a bare Fastify route, and the product's health check,
  // home page and public config (the pages and the settings they are drawn with served from memory)
  process.stdout.write('measuring (e) serving against a bare Fastify route...\n');
  const serving = await servingRates(
    [
      { label: 'bare', url: `${bareBase}/bare` },
      { label: '/healthz', url: `${base}/healthz`, atLeast: 0.9 },
      { label: 'home page HTML', url: `${base}/`, headers: { accept: 'text/html' }, atLeast: 0.5 },
      { label: '/api/config', url: `${base}/api/config` },
    ],
    SERIAL * 20,
    concurrency,
  );

  process.stdout.write('measuring (b) survey -> grading job -> GRADED push...\n');
  const ourLabel = '(b) survey -> GRADED on the socket';
  const ours: RunStats[] = [];
  ours.push(await gradedFlows(base, ourLabel, flows.slice(0, SERIAL), 1));
  ours.push(await gradedFlows(base, ourLabel, flows.slice(SERIAL, half), concurrency, SERIAL));
  const atHalf = { server: rssMb(server.pid!), worker: rssMb(worker.pid!) };

  process.stdout.write(`measuring (c) and (b) in ${ROUNDS} rounds each, in turns...\n`);
  const parts = { server: server.pid!, worker: worker.pid! };
  const bareRounds: Array<{ run: RunStats; spent: CpuReading }> = [];
  const ourRounds: Array<{ run: RunStats; spent: CpuReading }> = [];
  const ourWrites: Record<string, number> = {};
  const statements = await statementTimes(pool);
  const bareCalls = callCounter();
  const ourCalls = callCounter();
  const measured = totalFlows - half;
  for (let round = 0; round < ROUNDS; round += 1) {
    const from = half + Math.floor((measured * round) / ROUNDS);
    const to = half + Math.floor((measured * (round + 1)) / ROUNDS);
    const bareBefore = await readCpu(bareParts, pool);
    const bareCallsBefore = readCalls(bareParts);
    const bareRun = await bareFlows(bareBase, bareLabel, to - from, concurrency, from);
    bareRounds.push({ run: bareRun, spent: cpuSpent(bareBefore, await readCpu(bareParts, pool), to - from) });
    bareCalls.add(bareCallsBefore, readCalls(bareParts), to - from);

    // the counters' reads wait for PostgreSQL's statistics: outside the CPU's window
    const writesBefore = await databaseWrites(pool);
    await statements.beforeRound();
    const before = await readCpu(parts, pool);
    const callsBefore = readCalls(parts);
    const ourRun = await gradedFlows(base, ourLabel, flows.slice(from, to), concurrency, from);
    // what the round left queued (results emails) is charged to it too: it is the same flows' work
    await settleQueues(pool);
    ourRounds.push({ run: ourRun, spent: cpuSpent(before, await readCpu(parts, pool), to - from) });
    ourCalls.add(callsBefore, readCalls(parts), to - from);
    await statements.afterRound();
    addWrites(ourWrites, writesBefore, await databaseWrites(pool));
  }
  const roundsOf = (rounds: Array<{ run: RunStats; spent: CpuReading }>) => ({
    run: combineRuns(rounds.map((round) => round.run)),
    cpu: cpuOverRounds(rounds.map((round) => ({ spent: round.spent, flows: round.run.count }))),
  });
  const bareMeasured = roundsOf(bareRounds);
  const ourMeasured = roundsOf(ourRounds);
  bare.push(bareMeasured.run);
  ours.push(ourMeasured.run);
  const bareCpu = bareMeasured.cpu;
  const ourCpu = ourMeasured.cpu;
  const bareAtEnd = { server: rssMb(bareProcesses.server.pid!), worker: rssMb(bareProcesses.worker.pid!) };
  const bareResults = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bare_results');
  await bareProcesses.stop();
  const atEnd = { server: rssMb(server.pid!), worker: rssMb(worker.pid!) };

  const graded = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM assessment_results');

  // (d) the coach's re-grade over every graded lead: a dry run, then applying it, then the undo
  process.stdout.write('measuring (d) re-grading every graded lead...\n');
  const proposal = { ...DEFAULT_GRADING_RULES, thresholds: { bookCall: 65, homework: 45 } };
  const admin = await pool.query<{ id: string }>('SELECT id FROM users LIMIT 1');
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const value = await work();
    return { value, ms: performance.now() - started };
  };
  const everyLead = { includeTestLeads: true };
  const dry = await timed(() => dryRun(pool, proposal, everyLead));
  const applied = await timed(() => applyRules(pool, proposal, everyLead, admin.rows[0]!.id, 'bench'));
  const undone = await timed(() => undoLastApplication(pool, admin.rows[0]!.id));
  // what any one statement costs here, measured while the processes under test sit idle
  const roundTrip = await roundTripCost(databaseUrl);
  const ratio = (b: RunStats, a: RunStats, at: 'p50' | 'p99' = 'p50') => (b[at] / a[at]).toFixed(2);
  process.stdout.write(
    [
      '',
      formatRuns([...baseline, ...bare, ...ours, ...serving.map((run) => ({ ...run, label: `(e) GET ${run.label}` }))]),
      '',
      `b/a at p50: ${ratio(ours[0]!, baseline[0]!)} at concurrency 1, ${ratio(ours[2]!, baseline[1]!)} at concurrency ${concurrency}`,
      `assessment results stored: ${graded.rows[0]!.n} of ${totalFlows}`,
      `(d) re-grading ${dry.value.considered} leads (${dry.value.moved} move): dry run ${dry.ms.toFixed(0)} ms, apply ${applied.ms.toFixed(0)} ms, undo ${undone.ms.toFixed(0)} ms`,
      `(c) bare results stored: ${bareResults.rows[0]!.n} of ${totalFlows}`,
      cpuLine(`(c) at concurrency ${concurrency}`, bareCpu),
      cpuLine(`(b) at concurrency ${concurrency}`, ourCpu),
      bareCalls.line(`(c) at concurrency ${concurrency}`),
      ourCalls.line(`(b) at concurrency ${concurrency}`),
      `(b) at concurrency ${concurrency}: per flow in PostgreSQL: ${writesPerFlow(ourWrites, measured)}`,
      roundTripLine(roundTrip),
      ...statements.lines(measured),
      `(c) bare resident memory after ${totalFlows} flows: server ${bareAtEnd.server.toFixed(0)} MB, worker ${bareAtEnd.worker.toFixed(0)} MB`,
      `b/c at p50: ${ratio(ours[0]!, bare[0]!)} at concurrency 1, ${ratio(ours[2]!, bare[2]!)} at concurrency ${concurrency}`,
      `b/c at p99: ${ratio(ours[0]!, bare[0]!, 'p99')} at concurrency 1, ${ratio(ours[2]!, bare[2]!, 'p99')} at concurrency ${concurrency}`,
      servingLine(serving, concurrency),
      // the flow's cost against its targets, last
      ...flowCostTargets({
        cpu: { product: systemCpu(ourCpu), bare: systemCpu(bareCpu) },
        product: { serial: ours[0]!, loaded: ours[2]! },
        bare: { serial: bare[0]!, loaded: bare[2]! },
        memory: { half: atHalf, end: atEnd, halfFlows: half, flows: totalFlows },
      }),
      '',
    ].join('\n'),
  );
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => process.stderr.write(`cleanup: ${String(error)}\n`));
}
