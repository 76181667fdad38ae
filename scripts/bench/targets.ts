import type { RunStats } from './stats.js';

/*
 * Issue 30's targets for the product's path (b), each against the bare path (c) of the same run: (c)
 * is this architecture's floor on this machine, and the product's path must do more than (c) does
 * (grade, store the diagnostic and the survey, keep the journey, compose the results email), so the
 * targets are ratios that leave room for that work rather than asking (b) to cost what (c) costs
 * (decision 0042). Each figure is printed beside its target with whether it meets it.
 */

/** How every target line ends. */
export const verdict = (met: boolean) => (met ? 'within target' : 'OVER TARGET');

export interface FlowCostFigures {
  /** CPU ms per graded flow of the server, worker, PostgreSQL and Redis: (b) and (c). */
  cpu: { product: number; bare: number };
  /** (b) and (c) at concurrency 1 and at concurrency N. */
  product: { serial: RunStats; loaded: RunStats };
  bare: { serial: RunStats; loaded: RunStats };
  /** Resident MB of the product's processes after half the flows and after all. */
  memory: { half: { server: number; worker: number }; end: { server: number; worker: number }; halfFlows: number; flows: number };
}

const MEMORY_LIMIT_MB = 150;
/** "Flat": grew by at most this share from half the flows to all of them. */
const MEMORY_GROWTH = 0.05;

/** The target lines, last in the bench's output. */
export function flowCostTargets({ cpu, product, bare, memory }: FlowCostFigures): string[] {
  const cpuRatio = cpu.product / cpu.bare;
  const rateRatio = product.loaded.perSecond / bare.loaded.perSecond;
  const serialRatio = product.serial.p50 / bare.serial.p50;
  const grew = (part: 'server' | 'worker') => memory.end[part] / memory.half[part] - 1;
  const memoryMet = (['server', 'worker'] as const).every((part) => memory.end[part] < MEMORY_LIMIT_MB && grew(part) <= MEMORY_GROWTH);
  const mb = (part: 'server' | 'worker') =>
    `${part} ${memory.half[part].toFixed(0)} -> ${memory.end[part].toFixed(0)} MB (${(grew(part) * 100).toFixed(1)}%)`;
  return [
    `CPU per graded flow (server, worker, PostgreSQL, Redis): b ${cpu.product.toFixed(2)} ms, c ${cpu.bare.toFixed(2)} ms, ${cpuRatio.toFixed(2)}x (target: at most 3x c): ${verdict(cpuRatio <= 3)}`,
    `graded per second at concurrency ${product.loaded.concurrency}: b ${product.loaded.perSecond.toFixed(0)}, c ${bare.loaded.perSecond.toFixed(0)}, ${rateRatio.toFixed(2)}x (target: at least 0.33x c): ${verdict(rateRatio >= 0.33)}`,
    `b/c at p50 at concurrency 1: ${serialRatio.toFixed(2)} (target: at most 1.8): ${verdict(serialRatio <= 1.8)}`,
    `resident memory after ${memory.halfFlows} -> ${memory.flows} flows: ${mb('server')}, ${mb('worker')} (target: each under ${MEMORY_LIMIT_MB} MB, flat: at most ${MEMORY_GROWTH * 100}% more): ${verdict(memoryMet)}`,
  ];
}
