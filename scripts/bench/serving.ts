import { measure, type RunStats } from './stats.js';
import { verdict } from './targets.js';
import { loadAgent, rawRequest } from './raw-request.js';

/** One kind of request the serving figures time: a label, the address and its headers. */
interface Served {
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** Its target, where it has one: its rate at least this share of the first address's (issue 19). */
  atLeast?: number;
}

/** An address's median round, with its target. */
type ServedRate = RunStats & Pick<Served, 'atLeast'>;

/** How many times each address is timed, the addresses taking turns. */
const ROUNDS = 3;

/**
 * Requests per second of each address, `count` requests with `concurrency` in flight over
 * keep-alive connections, each body read to its end but not decoded (raw-request.ts: decoding the
 * home page's brotli cost this load generator about 300 microseconds a request against the
 * server's 60, so the figure was the client's). Every address is warmed up (a tenth as many
 * requests, untimed) first, so none is timed cold. The addresses take turns over three rounds and
 * each keeps its median round: a single pass let whatever else ran at that moment (a collection, a
 * timer) decide the ratio.
 */
export async function servingRates(served: Served[], count: number, concurrency: number): Promise<ServedRate[]> {
  const agent = loadAgent(concurrency);
  const request = (url: string, headers?: Record<string, string>) => async () => {
    const started = performance.now();
    const { status } = await rawRequest(url, { agent, headers });
    if (status !== 200) throw new Error(`${url}: ${status}`);
    return performance.now() - started;
  };
  for (const { label, url, headers } of served) await measure(label, Math.ceil(count / 10), concurrency, request(url, headers));
  const rounds: RunStats[][] = served.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { label, url, headers }] of served.entries())
      rounds[index]!.push(await measure(label, count, concurrency, request(url, headers)));
  }
  agent.destroy();
  return rounds.map((runs, index) => ({
    ...runs.sort((a, b) => a.perSecond - b.perSecond)[Math.floor(runs.length / 2)]!,
    atLeast: served[index]!.atLeast,
  }));
}

/** The serving figures as the bench prints them: each rate, its ratio to the yardstick's, and its target where it has one. */
export function servingLine(runs: ServedRate[], concurrency: number): string {
  const [bare, ...rest] = runs;
  const figures = rest.map((run) => {
    const ratio = run.perSecond / bare!.perSecond;
    const against = run.atLeast === undefined ? '' : `, target at least ${run.atLeast}x: ${verdict(ratio >= run.atLeast)}`;
    return `${run.label} ${run.perSecond.toFixed(0)} (${ratio.toFixed(2)}x${against})`;
  });
  return `served per second at concurrency ${concurrency}: bare Fastify route ${bare!.perSecond.toFixed(0)}; ${figures.join('; ')}`;
}
