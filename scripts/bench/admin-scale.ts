/*
 * The admin at scale (issue 30): a coach who ran ads for years. Seeds `leads` leads with their
 * flows, events, results, payments, jobs and Mirror sessions (admin-seed.ts, set operations), starts
 * the product's server as `npm start` runs it, signs an admin in, and times every admin read the
 * coach's screens make: the Overview (counters, funnel and leads per day, drop-off, Needs attention),
 * the leads table under each filter and sort (search and a deep page too), a lead's page, the Mirror
 * sessions, and the CSV of every lead with the server's resident memory sampled while it streams.
 * Each request is sent `requests` times one after the other, after a warm-up; it prints p50, p95 and
 * max against the 200 ms target. Run by `npm run bench -- --only admin [--admin-leads 100000]`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { signedInAdmin } from '#test/admin-session.js';
import { ensureServerBuilt, ensureWebBuilt } from '../lib/ensure.mjs';
import { spawnBundle, stopChild, waitForReady } from '../services/child.js';
import { freePort } from '../services/free-port.js';
import { seedAdminLeads } from './admin-seed.js';
import { benchServices, productEnv } from './services.js';

const TARGET_MS = 200;
const CSV_TARGET_S = 10;

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Timed {
  label: string;
  p50: number;
  p95: number;
  max: number;
}

/** The admin reads to time, by label: each a path, or a function of the request's index (a lead page per lead). */
function adminReads(leadIds: string[]): Array<[string, (index: number) => string]> {
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const fixed = (path: string) => () => path;
  return [
    ['overview 30d', fixed('/api/admin/overview?period=30d')],
    ['overview all time', fixed('/api/admin/overview?period=all')],
    ['overview all, test included', fixed('/api/admin/overview?period=all&includeTest=true')],
    ['funnel + leads per day 30d', fixed('/api/admin/overview/funnel?period=30d')],
    ['funnel + leads per week all', fixed('/api/admin/overview/funnel?period=all')],
    ['drop-off 30d', fixed('/api/admin/overview/dropoff?period=30d')],
    ['drop-off all time', fixed('/api/admin/overview/dropoff?period=all')],
    ['needs attention', fixed('/api/admin/overview/attention')],
    ['leads: newest first', fixed('/api/admin/leads')],
    ['leads: oldest first', fixed('/api/admin/leads?dir=asc')],
    ['leads: by email', fixed('/api/admin/leads?sort=email&dir=asc')],
    ['leads: by leadership score', fixed('/api/admin/leads?sort=leadership_score')],
    ['leads: by qualification score', fixed('/api/admin/leads?sort=qualification_score')],
    ['leads: tier book_call', fixed('/api/admin/leads?tier=book_call')],
    ['leads: tier nurture by score', fixed('/api/admin/leads?tier=nurture&sort=qualification_score')],
    ['leads: source facebook', fixed('/api/admin/leads?source=facebook')],
    ['leads: tag test (test incl.)', fixed('/api/admin/leads?tag=test&includeTest=true')],
    ['leads: last 30 days', fixed(`/api/admin/leads?from=${day(29)}&to=${day(0)}`)],
    ['leads: search', fixed('/api/admin/leads?q=lead-4242')],
    ['leads: page 2000 of 25', fixed('/api/admin/leads?page=2000')],
    ['leads: 100 a page, test incl.', fixed('/api/admin/leads?pageSize=100&includeTest=true')],
    ['lead page', (index) => `/api/admin/leads/${leadIds[index % leadIds.length]}`],
    ['mirror sessions', fixed('/api/admin/mirror-sessions')],
    ['mirror sessions: saved', fixed('/api/admin/mirror-sessions?show=saved')],
    ['mirror sessions: page 200', fixed('/api/admin/mirror-sessions?page=200')],
  ];
}

async function timeRead(base: string, headers: Record<string, string>, path: (i: number) => string, requests: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = -2; i < requests; i++) {
    const started = performance.now();
    const response = await fetch(`${base}${path(Math.max(i, 0) + (i < 0 ? 100 : 0))}`, { headers });
    if (response.status !== 200) throw new Error(`${path(i)} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    if (i >= 0) latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

/** The CSV of every lead, read as it streams, with the server's RSS sampled every 50 ms and read once half of the leads are in. */
async function timeCsv(base: string, headers: Record<string, string>, serverPid: number, leads: number) {
  const before = rssMb(serverPid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(serverPid))), 50);
  const started = performance.now();
  const response = await fetch(`${base}/api/admin/leads.csv?includeTest=true`, { headers });
  if (response.status !== 200) throw new Error(`leads.csv answered ${response.status}`);
  let bytes = 0;
  let rows = -1; // the header
  const midway: number[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) rows++;
    if (midway.length === 0 && rows >= leads / 2) midway.push(rssMb(serverPid));
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { seconds, bytes, rows, before, during: midway[0] ?? NaN, peak, after: rssMb(serverPid) };
}

export async function adminScale(options: { leads: number; requests: number }): Promise<string> {
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    const runId = randomBytes(4).toString('hex');
    const { databaseUrl, redisUrl } = await benchServices(`hf_bench_admin_${runId}`, cleanups);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    cleanups.push(() => pool.end());
    process.stdout.write(`seeding ${options.leads} leads with their flows, results, payments and jobs...\n`);
    const seedStarted = performance.now();
    await seedAdminLeads(pool, options.leads);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const port = await freePort();
    ensureWebBuilt();
    await ensureServerBuilt();
    const server = spawnBundle(
      'dist/server/main.mjs',
      productEnv({ port, databaseUrl, redisUrl, queuePrefix: `hf-bench-admin-${runId}` }),
      'inherit',
    );
    cleanups.push(() => stopChild(server, 10_000));
    await waitForReady(server, 'server');
    const base = `http://127.0.0.1:${port}`;
    const admin = await signedInAdmin(pool);
    const leadIds = (await pool.query<{ lead_id: string }>('SELECT lead_id FROM leads ORDER BY random() LIMIT 200')).rows.map(
      (r) => r.lead_id,
    );

    process.stdout.write(`timing each admin read ${options.requests} times after a warm-up...\n`);
    const timed: Timed[] = [];
    for (const [label, path] of adminReads(leadIds)) {
      const latencies = await timeRead(base, admin.headers, path, options.requests);
      timed.push({ label, p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1)! });
      process.stdout.write(`  ${label}: p95 ${timed.at(-1)!.p95.toFixed(0)} ms\n`);
    }
    const csv = await timeCsv(base, admin.headers, server.pid!, options.leads);
    const counts = await pool.query<{ flows: number; events: number; results: number; jobs: number }>(
      `SELECT (SELECT count(*) FROM flows)::int AS flows, (SELECT count(*) FROM flow_events)::int AS events,
              (SELECT count(*) FROM assessment_results)::int AS results, (SELECT count(*) FROM jobs)::int AS jobs`,
    );
    const { flows, events, results, jobs } = counts.rows[0]!;
    const rows = timed.map((t) =>
      [
        t.label.padEnd(34),
        t.p50.toFixed(0).padStart(7),
        t.p95.toFixed(0).padStart(7),
        t.max.toFixed(0).padStart(7),
        t.p95 <= TARGET_MS ? '   ok' : ' SLOW',
      ].join(' '),
    );
    const slow = timed.filter((t) => t.p95 > TARGET_MS).length;
    return [
      '',
      `Admin at ${options.leads} leads (${flows} flows, ${events} flow events, ${results} results, ${jobs} jobs; seeded in ${seedSeconds.toFixed(0)} s), ${options.requests} requests each after 2 warm-ups:`,
      ['admin read'.padEnd(34), 'p50 ms'.padStart(7), 'p95 ms'.padStart(7), 'max ms'.padStart(7), ''].join(' '),
      ...rows,
      `${timed.length - slow} of ${timed.length} admin reads at most ${TARGET_MS} ms at p95`,
      `CSV of all leads: ${csv.seconds.toFixed(1)} s (target under ${CSV_TARGET_S} s), ${csv.rows} rows, ${(csv.bytes / 1e6).toFixed(1)} MB; ` +
        `server RSS before ${csv.before.toFixed(0)} MB, midway ${csv.during.toFixed(0)} MB, peak ${csv.peak.toFixed(0)} MB, after ${csv.after.toFixed(0)} MB`,
      '',
    ].join('\n');
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error: unknown) => process.stderr.write(`cleanup: ${String(error)}\n`));
  }
}
