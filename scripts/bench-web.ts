/*
 * npm run bench:web [-- --runs 3 --pages /,/contact]
 *
 * Builds the site (vite build, into .data/bench-web/dist so a running web/dist is left alone; the
 * build's page renderer lands beside it in .data/bench-web/dist-ssr), serves the build with the
 * real server on a free loopback port, and runs Lighthouse on each public page the build renders
 * (PRERENDERED_PAGES) and on the not-found page, in Debian's headless chromium. Lighthouse's
 * default config: the mobile preset (moto g power viewport, simulated slow-4G and 4x CPU
 * throttling), categories performance, accessibility, best-practices and SEO. With --runs N each
 * page is run N times and the run with the median performance score is reported. Per page it
 * prints the four scores, LCP, FCP, TBT, CLS, Speed Index and the JavaScript the page asks for
 * before its load event (script requests in Lighthouse's network-requests audit that started
 * before the observed load event of its metrics audit) and during the whole run, then a line per
 * target and a markdown table, then the compression figures (scripts/bench-web/compression.ts). It
 * asserts nothing. JavaScript is counted in the gzip bytes the server sends to a client that accepts
 * only gzip (the build's .gz, gzip -9), the unit of the target; Lighthouse's transfer sizes (printed
 * too) are what Chromium got, brotli, with the headers.
 *
 * The JSON report of each reported run is left in .data/bench-web/lighthouse/.
 *
 * Then the tap figures (scripts/bench-web/tap.ts): --tap-runs N cold runs (5; 0 skips them), or
 * only those with --only tap.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { buildApp } from '#server/app.js';
import { loadConfig } from '#core/config/index.js';
import { createPool } from '#core/db/pool.js';
import { createRedis } from '#core/redis.js';
import { PRERENDERED_PAGES } from '#machines/protocol/pages.js';
import { ROOT } from './services/child.js';
import { benchServices, deleteRunKeys } from './bench/services.js';
import { freePort } from './services/free-port.js';
import { launchDebuggableChromium } from './bench-web/chromium.js';
import { compressionReport, gzipBytesSent } from './bench-web/compression.js';
import { benchTap } from './bench-web/tap.js';
import { CATEGORIES, medianRun, pageFigures, type Category, type PageFigures, type ScriptRequest } from './bench-web/figures.js';

/** A path no page has: the server answers it with the rendered not-found page and 404. */
const NOT_FOUND_PAGE = '/no-such-page';
const ALL_PAGES: readonly string[] = [...PRERENDERED_PAGES, NOT_FOUND_PAGE];

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    pages: { type: 'string' },
    'tap-runs': { type: 'string', default: '5' },
    only: { type: 'string' },
  },
});
const RUNS = Math.max(1, Math.floor(Number(args.runs)) || 1);
const PAGES = args.only === 'tap' ? [] : args.pages ? args.pages.split(',').map((page) => page.trim()) : ALL_PAGES;
const unknown = PAGES.filter((page) => !ALL_PAGES.includes(page));
if (unknown.length > 0) {
  process.stderr.write(`--pages: not benchmarked: ${unknown.join(', ')} (choose from ${ALL_PAGES.join(', ')})\n`);
  process.exit(2);
}

const TARGETS = { performance: 95, otherScores: 100, lcpMs: 1800, lcpAimMs: 1500, cls: 0.02, homeFirstLoadJsKb: 60 };
const BENCH_DIR = path.join(ROOT, '.data', 'bench-web');
const OUT_DIR = path.join(BENCH_DIR, 'dist');
const REPORT_DIR = path.join(BENCH_DIR, 'lighthouse');
const CATEGORY_LABELS = { performance: 'performance', accessibility: 'accessibility', 'best-practices': 'best-practices', seo: 'SEO' };

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mark = (ok: boolean) => (ok ? 'within target' : 'OVER TARGET');
const score = (value: number | null) => (value === null ? '-' : String(value));
const pageName = (page: string) => (page === '/' ? 'home' : page === NOT_FOUND_PAGE ? 'not-found' : page.slice(1));

interface PageResult {
  page: string;
  figures: PageFigures;
  /** The performance score of every run, in run order. */
  performanceRuns: Array<number | null>;
  /** gzip -9 bytes of each script of the reported run, by URL. */
  gzipBytes: Map<string, number>;
  warnings: string[];
}

const cleanups: Array<() => Promise<unknown>> = [];
try {
  // 1. build
  process.stdout.write('Building the web app (vite build) ...\n');
  rmSync(OUT_DIR, { recursive: true, force: true });
  const build = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/vite.config.ts',
      '--outDir',
      OUT_DIR,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error(`vite build failed (exit ${build.status})`);

  // 2. services and the real server on the fresh build
  const runId = randomBytes(4).toString('hex');
  const { databaseUrl, redisUrl } = await benchServices(`hf_bench_web_${runId}`, cleanups);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      // the address Lighthouse loads, so canonical links and the sitemap name the audited origin
      PUBLIC_URL: base,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
    },
    { isTTY: false },
  );
  const queuePrefix = `hf-bench-web-${runId}`;
  const pool = createPool(config.DATABASE_URL!, 4);
  const redis = createRedis(config.REDIS_URL!, 'producer');
  const app = await buildApp({
    config: { ...config, QUEUE_PREFIX: queuePrefix },
    pool,
    redis,
    logger: false,
    webRoot: OUT_DIR,
  });
  await app.listen({ host: '127.0.0.1', port });
  cleanups.push(async () => {
    await app.close();
    await pool.end();
    await deleteRunKeys(redis, queuePrefix);
    redis.disconnect();
  });

  // 3. Lighthouse on each page
  const chromium = await launchDebuggableChromium();
  cleanups.push(chromium.stop);
  rmSync(REPORT_DIR, { recursive: true, force: true });
  mkdirSync(REPORT_DIR, { recursive: true });

  /** The bytes of a script the server sends to a client that accepts gzip. */
  const gzipCache = new Map<string, number>();
  const gzipSize = async (url: string): Promise<number> => {
    let size = gzipCache.get(url);
    if (size === undefined) {
      size = await gzipBytesSent(url);
      gzipCache.set(url, size);
    }
    return size;
  };

  let lighthouseVersion = '';
  let benchmarkIndex = 0;
  process.stdout.write(
    `\nLighthouse on ${base}, ${PAGES.length} page(s) x ${RUNS} run(s), mobile preset (simulated throttling), ${chromium.version} ...\n`,
  );
  const results: PageResult[] = [];
  const failed: Array<{ page: string; error: string }> = [];
  for (const page of PAGES) {
    const flags: Flags = {
      port: chromium.port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: [...CATEGORIES],
      // the not-found page is answered with 404 on purpose
      ignoreStatusCode: page === NOT_FOUND_PAGE,
    };
    const runs: Array<{ lhr: Result; figures: PageFigures }> = [];
    let error = '';
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(`${base}${page}`, flags);
      const lhr = result?.lhr;
      if (!lhr) {
        error = 'Lighthouse returned no result';
        continue;
      }
      if (lhr.runtimeError) {
        error = `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
        continue;
      }
      lighthouseVersion = lhr.lighthouseVersion;
      benchmarkIndex = lhr.environment.benchmarkIndex;
      runs.push({ lhr, figures: pageFigures(lhr) });
    }
    if (runs.length === 0) {
      failed.push({ page, error });
      process.stdout.write(`\n${page}: no figures (${error})\n`);
      continue;
    }
    const chosen = medianRun(runs);
    writeFileSync(path.join(REPORT_DIR, `${pageName(page)}.json`), JSON.stringify(chosen.lhr, null, 1));
    const gzipBytes = new Map<string, number>();
    for (const script of chosen.figures.allScripts) gzipBytes.set(script.url, await gzipSize(script.url));
    const result: PageResult = {
      page,
      figures: chosen.figures,
      performanceRuns: runs.map((run) => run.figures.scores.performance),
      gzipBytes,
      warnings: chosen.lhr.runWarnings.map(String),
    };
    results.push(result);
    process.stdout.write(describePage(result, base, runs.length));
  }

  // 4. against the targets, and the table
  if (PAGES.length > 0) {
    process.stdout.write(summary(results, failed));
    process.stdout.write(markdownTable(results, lighthouseVersion, chromium.version, benchmarkIndex));
    process.stdout.write(`\nJSON reports of the reported runs: ${path.relative(ROOT, REPORT_DIR)}/\n`);
    process.stdout.write(await compressionReport(base, OUT_DIR));
  }
  if (Number(args['tap-runs']) > 0) process.stdout.write(await benchTap(base, Number(args['tap-runs'])));
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => process.stderr.write(`cleanup: ${String(error)}\n`));
}

function gzipTotal(result: PageResult, scripts: ScriptRequest[]): number {
  return scripts.reduce((sum, script) => sum + (result.gzipBytes.get(script.url) ?? 0), 0);
}

function describePage(result: PageResult, base: string, runCount: number): string {
  const { figures: f } = result;
  const shortUrl = (url: string) => (url.startsWith(base) ? url.slice(base.length) : url);
  const transfer = (scripts: ScriptRequest[]) => scripts.reduce((sum, script) => sum + script.transferBytes, 0);
  const lines = [
    '',
    `${result.page}${runCount > 1 ? `  (median of ${runCount} runs; performance per run: ${result.performanceRuns.map(score).join(' ')})` : ''}`,
    `  scores         ${CATEGORIES.map((id) => `${CATEGORY_LABELS[id]} ${score(f.scores[id])}`).join('   ')}`,
    `  metrics        LCP ${seconds(f.lcpMs)}   FCP ${seconds(f.fcpMs)}   TBT ${f.tbtMs.toFixed(0)} ms   CLS ${f.cls.toFixed(3)}   Speed Index ${seconds(f.speedIndexMs)}`,
    `  first-load JS  ${kb(gzipTotal(result, f.firstLoadScripts))} gzip in ${f.firstLoadScripts.length} script(s) requested before the load event (${f.loadEventMs.toFixed(0)} ms, observed), ${kb(transfer(f.firstLoadScripts))} transferred`,
    ...f.firstLoadScripts.map(
      (script) =>
        `                   ${shortUrl(script.url).padEnd(44)} at ${script.requestedAtMs.toFixed(0).padStart(5)} ms  ${kb(result.gzipBytes.get(script.url) ?? 0).padStart(9)} gzip  ${kb(script.resourceBytes).padStart(9)} raw`,
    ),
    `  all JS         ${kb(gzipTotal(result, f.allScripts))} gzip in ${f.allScripts.length} script(s) during the run, ${kb(transfer(f.allScripts))} transferred`,
  ];
  for (const audit of f.failedAudits) lines.push(`  failed audit   ${CATEGORY_LABELS[audit.category]}: ${audit.id} (${audit.title})`);
  for (const warning of result.warnings) lines.push(`  warning        ${warning}`);
  return `${lines.join('\n')}\n`;
}

function summary(results: PageResult[], failed: Array<{ page: string; error: string }>): string {
  const lines = ['', 'Against the targets (the reported run of each page):'];
  if (failed.length > 0) lines.push(`  no figures for ${failed.map((item) => item.page).join(', ')}: OVER TARGET (not measured)`);
  const worst = (pick: (result: PageResult) => number | null, lowest: boolean) => {
    let found: { page: string; value: number } | null = null;
    for (const result of results) {
      const value = pick(result) ?? (lowest ? -Infinity : Infinity);
      if (!found || (lowest ? value < found.value : value > found.value)) found = { page: result.page, value };
    }
    return found;
  };
  /** The pages whose score is under `min`, each with the audits that cost it points (none for performance). */
  const below = (category: Category, min: number) =>
    results
      .filter((result) => (result.figures.scores[category] ?? -1) < min)
      .map((result) => {
        const audits = result.figures.failedAudits.filter((audit) => audit.category === category).map((audit) => audit.id);
        return `${result.page} ${score(result.figures.scores[category])}${audits.length ? ` [${audits.join(', ')}]` : ''}`;
      });

  if (results.length === 0) return `${lines.join('\n')}\n`;
  const lowestPerf = worst((result) => result.figures.scores.performance, true)!;
  const perfMisses = below('performance', TARGETS.performance);
  lines.push(
    `  performance >= ${TARGETS.performance} on every page: lowest ${Number.isFinite(lowestPerf.value) ? lowestPerf.value : '-'} (${lowestPerf.page}): ${mark(perfMisses.length === 0)}${perfMisses.length ? ` (${perfMisses.join(', ')})` : ''}`,
  );
  for (const id of ['accessibility', 'best-practices', 'seo'] as const) {
    const misses = below(id, TARGETS.otherScores);
    lines.push(
      `  ${CATEGORY_LABELS[id]} = ${TARGETS.otherScores} on every page: ${mark(misses.length === 0)}${misses.length ? ` (${misses.join(', ')})` : ''}`,
    );
  }
  const lcp = worst((result) => result.figures.lcpMs, false)!;
  lines.push(
    `  LCP < ${seconds(TARGETS.lcpMs)} (aim ${seconds(TARGETS.lcpAimMs)}): slowest ${seconds(lcp.value)} (${lcp.page}): ${mark(lcp.value < TARGETS.lcpMs)}${lcp.value < TARGETS.lcpMs ? (lcp.value < TARGETS.lcpAimMs ? ', within the aim' : ', over the aim') : ''}`,
  );
  const cls = worst((result) => result.figures.cls, false)!;
  lines.push(`  CLS < ${TARGETS.cls}: largest ${cls.value.toFixed(3)} (${cls.page}): ${mark(cls.value < TARGETS.cls)}`);
  const home = results.find((result) => result.page === '/');
  if (home) {
    const js = gzipTotal(home, home.figures.firstLoadScripts);
    lines.push(
      `  first-load JavaScript of / <= ${TARGETS.homeFirstLoadJsKb} KB gzip: ${kb(js)}: ${mark(js / 1024 <= TARGETS.homeFirstLoadJsKb)}`,
    );
  } else {
    lines.push('  first-load JavaScript of /: not measured (/ not among --pages)');
  }
  return `${lines.join('\n')}\n`;
}

function markdownTable(results: PageResult[], lighthouseVersion: string, browser: string, benchmarkIndex: number): string {
  const rows = results.map((result) => {
    const { figures: f } = result;
    return `| ${result.page} | ${CATEGORIES.map((id) => score(f.scores[id])).join(' | ')} | ${seconds(f.lcpMs)} | ${seconds(f.fcpMs)} | ${f.tbtMs.toFixed(0)} ms | ${f.cls.toFixed(3)} | ${seconds(f.speedIndexMs)} | ${kb(gzipTotal(result, f.firstLoadScripts))} |`;
  });
  return [
    '',
    `Markdown (Lighthouse ${lighthouseVersion}, mobile preset with simulated throttling, ${browser}, benchmark index ${benchmarkIndex.toFixed(0)}, ${RUNS === 1 ? '1 run' : `median of ${RUNS} runs`} per page, ${new Date().toISOString().slice(0, 10)}):`,
    '',
    '| Page | Performance | Accessibility | Best practices | SEO | LCP | FCP | TBT | CLS | Speed Index | First-load JS (gzip) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n');
}
