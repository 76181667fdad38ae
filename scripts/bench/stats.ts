/** Latency percentiles and throughput of one measured run. */
export interface RunStats {
  label: string;
  concurrency: number;
  count: number;
  p50: number;
  p99: number;
  perSecond: number;
  /** Each call's latency in ms, sorted, and the run's wall time: what several runs are combined from. */
  latencies: number[];
  seconds: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `task` `count` times with `concurrency` in flight; each call resolves with its latency in ms. */
export async function measure(
  label: string,
  count: number,
  concurrency: number,
  task: (index: number, lane: number) => Promise<number>,
): Promise<RunStats> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      while (next < count) latencies.push(await task(next++, lane));
    }),
  );
  return statsOf(label, concurrency, latencies, (performance.now() - started) / 1000);
}

function statsOf(label: string, concurrency: number, latencies: number[], seconds: number): RunStats {
  latencies.sort((a, b) => a - b);
  const count = latencies.length;
  return {
    label,
    concurrency,
    count,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    perSecond: count / seconds,
    latencies,
    seconds,
  };
}

/** Runs taken in turns as one: their latencies together, their rate over their summed wall time. */
export function combineRuns(runs: RunStats[]): RunStats {
  const first = runs[0]!;
  const latencies = runs.flatMap((run) => run.latencies);
  return statsOf(
    first.label,
    first.concurrency,
    latencies,
    runs.reduce((sum, run) => sum + run.seconds, 0),
  );
}

/** A fixed-width table of runs. */
export function formatRuns(runs: RunStats[]): string {
  const rows = runs.map((run) =>
    [
      run.label.padEnd(34),
      String(run.concurrency).padStart(5),
      String(run.count).padStart(7),
      run.p50.toFixed(1).padStart(9),
      run.p99.toFixed(1).padStart(9),
      run.perSecond.toFixed(0).padStart(8),
    ].join(' '),
  );
  return [
    ['run'.padEnd(34), 'conc.'.padStart(5), 'count'.padStart(7), 'p50 ms'.padStart(9), 'p99 ms'.padStart(9), 'per s'.padStart(8)].join(' '),
    ...rows,
  ].join('\n');
}
