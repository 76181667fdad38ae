/*
 * npm run bench:web [-- --runs 5 --cpu 4]
 *
 * Builds the site (vite build, into .data/bench-web so a running web/dist is left alone), prints
 * the gzip size of the JavaScript and CSS the home page loads first (read from the built
 * index.html: its module script, modulepreload links and stylesheets), then serves the build
 * with the real server and loads the home page in headless Chromium with mobile emulation,
 * measuring with the browser's Performance API: LCP ('largest-contentful-paint'), CLS
 * ('layout-shift', largest session window), TBT (long tasks after first contentful paint) and
 * FCP. Each run is a cold load in a fresh browser context. It prints figures against the targets;
 * it asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildApp } from '#server/app.js';
import { loadConfig } from '#core/config/index.js';
import { createPool } from '#core/db/pool.js';
import { createRedis } from '#core/redis.js';
import { launchBrowser } from '#e2e/browser.js';
import { ROOT } from './services/child.js';
import { benchServices } from './bench/services.js';
import { freePort } from './services/free-port.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    /** CPU slowdown, as Lighthouse's mobile preset (4x). */
    cpu: { type: 'string', default: '4' },
  },
});
const RUNS = Math.max(1, Number(args.runs));
const CPU_SLOWDOWN = Math.max(1, Number(args.cpu));

const TARGETS = { firstLoadJsKb: 120, lcpMs: 1500, cls: 0.05 };
const OUT_DIR = path.join(ROOT, '.data', 'bench-web', 'dist');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mark = (ok: boolean) => (ok ? 'within target' : 'OVER TARGET');

/** The files index.html makes the browser fetch before the page can run, by kind. */
function firstLoadAssets(html: string): { js: string[]; css: string[] } {
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]+)"`).exec(tag)?.[1];
  const js = new Set<string>();
  const css = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    if (tag.startsWith('<script') && attr(tag, 'type') === 'module' && attr(tag, 'src')) js.add(attr(tag, 'src')!);
    const rel = attr(tag, 'rel');
    if (rel === 'modulepreload' && attr(tag, 'href')) js.add(attr(tag, 'href')!);
    if (rel === 'stylesheet' && attr(tag, 'href')) css.add(attr(tag, 'href')!);
  }
  return { js: [...js], css: [...css] };
}

function gzipSize(file: string): { raw: number; gzip: number } {
  const content = readFileSync(file);
  return { raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

/** Installed before any page script: collects paint, layout-shift and long-task entries. */
const OBSERVER_SCRIPT = `
(() => {
  const m = { lcp: 0, lcpElement: '', fcp: 0, shifts: [], longTasks: [] };
  window.__benchMetrics = m;
  const observe = (type, onEntry) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true }); } catch {}
  };
  observe('largest-contentful-paint', (e) => { m.lcp = e.startTime; m.lcpElement = e.element ? e.element.tagName + (e.element.id ? '#' + e.element.id : '') : ''; });
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') m.fcp = e.startTime; });
  observe('layout-shift', (e) => { if (!e.hadRecentInput) m.shifts.push({ t: e.startTime, v: e.value }); });
  observe('longtask', (e) => m.longTasks.push({ t: e.startTime, d: e.duration }));
})();
`;

interface RunMetrics {
  lcp: number;
  fcp: number;
  cls: number;
  tbt: number;
  /** All long tasks of the load, before FCP included (TBT counts only those after it). */
  longTaskMs: number;
  lcpElement: string;
  load: number;
}

/** CLS as the web-vitals library defines it: the largest session window of shifts (gap < 1 s, window < 5 s). */
function sessionWindowCls(shifts: Array<{ t: number; v: number }>): number {
  let best = 0;
  let current = 0;
  let start = -Infinity;
  let last = -Infinity;
  for (const shift of shifts) {
    if (shift.t - last > 1000 || shift.t - start > 5000) {
      current = 0;
      start = shift.t;
    }
    current += shift.v;
    last = shift.t;
    best = Math.max(best, current);
  }
  return best;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

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

  // 2. what the home page loads first
  const html = readFileSync(path.join(OUT_DIR, 'index.html'), 'utf8');
  const assets = firstLoadAssets(html);
  const sizeOf = (files: string[]) => files.map((file) => ({ file, ...gzipSize(path.join(OUT_DIR, file.replace(/^\//, ''))) }));
  const js = sizeOf(assets.js);
  const css = sizeOf(assets.css);
  const total = (list: Array<{ gzip: number }>) => list.reduce((sum, item) => sum + item.gzip, 0);
  const jsGzip = total(js);
  const lines: string[] = ['', 'Home page first load (from dist/index.html, gzip -9):'];
  for (const item of [...js, ...css])
    lines.push(`  ${item.file.padEnd(40)} ${kb(item.raw).padStart(10)} raw  ${kb(item.gzip).padStart(9)} gzip`);
  lines.push(`  JavaScript: ${kb(jsGzip)} gzip (target <= ${TARGETS.firstLoadJsKb} KB: ${mark(jsGzip / 1024 <= TARGETS.firstLoadJsKb)})`);
  lines.push(`  CSS:        ${kb(total(css))} gzip`);
  process.stdout.write(`${lines.join('\n')}\n\n`);

  // 3. services and the real server on the fresh build
  const runId = randomBytes(4).toString('hex');
  const { databaseUrl, redisUrl } = await benchServices(`hf_bench_web_${runId}`, cleanups);

  const port = await freePort();
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: `hf-bench-web-${runId}`,
    },
    { isTTY: false },
  );
  const pool = createPool(config.DATABASE_URL!, 4);
  const redis = createRedis(config.REDIS_URL!, 'producer');
  const app = await buildApp({ config, pool, redis, logger: false, webRoot: OUT_DIR });
  await app.listen({ host: '127.0.0.1', port });
  cleanups.push(async () => {
    await app.close();
    await pool.end();
    redis.disconnect();
  });
  const base = `http://127.0.0.1:${port}/`;

  // 4. the home page in Chromium, mobile emulation, cold loads
  const browser = await launchBrowser();
  cleanups.push(() => browser.close());
  process.stdout.write(
    `Measuring ${base} in headless Chromium: ${RUNS} cold loads, 412x823 mobile, DPR 1.75, CPU ${CPU_SLOWDOWN}x slower ...\n`,
  );
  const runs: RunMetrics[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    });
    await context.addInitScript({ content: OBSERVER_SCRIPT });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(base, { waitUntil: 'load' });
    // let late work (session check, idle callbacks) finish and be observed
    await page.waitForTimeout(2500);
    const raw = await page.evaluate(() => {
      const m = (
        window as unknown as {
          __benchMetrics: {
            lcp: number;
            lcpElement: string;
            fcp: number;
            shifts: Array<{ t: number; v: number }>;
            longTasks: Array<{ t: number; d: number }>;
          };
        }
      ).__benchMetrics;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return { ...m, load: nav ? nav.loadEventEnd : 0 };
    });
    const tbt = raw.longTasks.filter((task) => task.t + task.d > raw.fcp).reduce((sum, task) => sum + Math.max(0, task.d - 50), 0);
    const longTaskMs = raw.longTasks.reduce((sum, task) => sum + task.d, 0);
    runs.push({
      lcp: raw.lcp,
      fcp: raw.fcp,
      cls: sessionWindowCls(raw.shifts),
      tbt,
      longTaskMs,
      lcpElement: raw.lcpElement,
      load: raw.load,
    });
    await context.close();
  }

  const lcp = median(runs.map((run) => run.lcp));
  const cls = Math.max(...runs.map((run) => run.cls));
  const out = [
    '',
    'run   FCP ms   LCP ms   CLS      TBT ms   long tasks ms   load ms  LCP element',
    ...runs.map(
      (run, i) =>
        `${String(i + 1).padEnd(5)} ${run.fcp.toFixed(0).padStart(6)}   ${run.lcp.toFixed(0).padStart(6)}   ${run.cls.toFixed(3).padEnd(7)}  ${run.tbt.toFixed(0).padStart(6)}   ${run.longTaskMs.toFixed(0).padStart(13)}   ${run.load.toFixed(0).padStart(6)}   ${run.lcpElement}`,
    ),
    '',
    `LCP (median): ${lcp.toFixed(0)} ms (target < ${TARGETS.lcpMs} ms: ${mark(lcp < TARGETS.lcpMs)})`,
    `CLS (worst):  ${cls.toFixed(3)} (target < ${TARGETS.cls}: ${mark(cls < TARGETS.cls)})`,
    `TBT (median): ${median(runs.map((run) => run.tbt)).toFixed(0)} ms`,
    `FCP (median): ${median(runs.map((run) => run.fcp)).toFixed(0)} ms`,
    `First-load JS: ${kb(jsGzip)} gzip (target <= ${TARGETS.firstLoadJsKb} KB: ${mark(jsGzip / 1024 <= TARGETS.firstLoadJsKb)})`,
    '',
  ];
  process.stdout.write(out.join('\n'));
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => process.stderr.write(`cleanup: ${String(error)}\n`));
}
