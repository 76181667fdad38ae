import { describe, expect, it } from 'vitest';
import { scratchDatabase } from '#test/helpers.js';
import { runChaos } from './run.js';

/*
 * The fault run at a smaller size: every fault of faults.ts against two real server processes
 * behind the run's balancer and a worker, a redis-server of its own, with visitors on every path,
 * a server left down and a rolling deploy onto the next machine version among the faults.
 * `npm run chaos` runs it with 1,000 flows.
 */
describe('the fault run', () => {
  it('loses, doubles and strands nothing, crashes no process, and recovers from each fault within 10 s', { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const report = await runChaos({
      flows: 80,
      concurrency: 16,
      servers: 2,
      workers: 1,
      databaseUrl: await scratchDatabase(),
      say: (line) => lines.push(line),
    });
    process.stdout.write(`${report.summary}\n`);
    expect({ lost: report.lost, duplicated: report.duplicated, stuck: report.stuck, crashes: report.crashes }).toEqual({
      lost: [],
      duplicated: [],
      stuck: [],
      crashes: [],
    });
    expect(report.faults).toHaveLength(8);
    expect(report.serverErrorsOutsideFaults).toBe(0);
    for (const fault of report.faults) expect(fault.recoveryMs, fault.name).toBeLessThan(10_000);
    expect(report.summary).toMatch(/^80 flows, 8 faults, lost 0, duplicated 0, stuck 0, crashes 0/);
  });
});
