import { measure, type RunStats } from './stats.js';

/** One kind of request the serving figures time: a label, the address and its headers. */
interface Served {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

/** How many times each address is timed, the addresses taking turns. */
const ROUNDS = 3;

/**
 * Requests per second of each address, `count` requests with `concurrency` in flight over
 * keep-alive connections (fetch's own pool), each body read to its end; the first is the yardstick.
 * Every address is warmed up (a tenth as many requests, untimed) first, so none is timed cold. The
 * addresses take turns over three rounds and each keeps its median round: on this 2-core machine
 * the load generator shares the cores with the servers, and a single pass let whatever else ran
 * at that moment (a collection, a timer) decide the ratio.
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
  const rounds: RunStats[][] = served.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { label, url, headers }] of served.entries())
      rounds[index]!.push(await measure(label, count, concurrency, request(url, headers)));
  }
  return rounds.map((runs) => runs.sort((a, b) => a.perSecond - b.perSecond)[Math.floor(runs.length / 2)]!);
}

/** The serving figures as the bench prints them: each rate, and its ratio to the yardstick's. */
export function servingLine(runs: RunStats[], concurrency: number): string {
  const [bare, ...rest] = runs;
  const figures = rest.map((run) => `${run.label} ${run.perSecond.toFixed(0)} (${(run.perSecond / bare!.perSecond).toFixed(2)}x)`);
  return `served per second at concurrency ${concurrency}: bare Fastify route ${bare!.perSecond.toFixed(0)}; ${figures.join('; ')} (target: /healthz at least 0.9x, home page HTML at least 0.5x)`;
}
