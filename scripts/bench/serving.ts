import { measure, type RunStats } from './stats.js';

/** One kind of request the serving figures time: a label, the address and its headers. */
interface Served {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

/**
 * Requests per second of each address, `count` requests with `concurrency` in flight over
 * keep-alive connections (fetch's own pool), each body read to its end; the first is the yardstick.
 * Every address is warmed up (a tenth as many requests, untimed) first, so none is timed cold.
 */
export async function servingRates(served: Served[], count: number, concurrency: number): Promise<RunStats[]> {
  const request = (url: string, headers?: Record<string, string>) => async () => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    return performance.now() - started;
  };
  for (const { label, url, headers } of served) await measure(label, Math.ceil(count / 10), concurrency, request(url, headers));
  const runs: RunStats[] = [];
  for (const { label, url, headers } of served) runs.push(await measure(label, count, concurrency, request(url, headers)));
  return runs;
}

/** The serving figures as the bench prints them: each rate, and its ratio to the yardstick's. */
export function servingLine(runs: RunStats[], concurrency: number): string {
  const [bare, ...rest] = runs;
  const figures = rest.map((run) => `${run.label} ${run.perSecond.toFixed(0)} (${(run.perSecond / bare!.perSecond).toFixed(2)}x)`);
  return `served per second at concurrency ${concurrency}: bare Fastify route ${bare!.perSecond.toFixed(0)}; ${figures.join('; ')} (target: /healthz at least 0.9x, home page HTML at least 0.5x)`;
}
