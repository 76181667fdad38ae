/*
 * npm run chaos [-- --flows 1000 --concurrency 50 --servers 2 --workers 2]
 *
 * The fault run of scripts/chaos/run.ts with real processes: prints its progress, then
 * `N flows, F faults, lost L, duplicated D, stuck S, crashes C` and each fault's recovery time,
 * then what went wrong, if anything. Exits 1 unless nothing was lost, doubled or stuck, no process
 * crashed, no visitor got a 5xx outside a fault, and every fault was recovered from within 10 s. With
 * --servers 2 or more the run's own balancer fronts the servers and two faults join: one server killed
 * and left down, and a rolling deploy onto the next machine version.
 */
import { parseArgs } from 'node:util';
import { runChaos } from './run.js';

const { values: args } = parseArgs({
  options: {
    flows: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    servers: { type: 'string', default: '1' },
    workers: { type: 'string', default: '1' },
  },
});
const report = await runChaos({
  flows: Number(args.flows),
  concurrency: Number(args.concurrency),
  servers: Number(args.servers),
  workers: Number(args.workers),
  say: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(`\n${report.summary}\n`);
for (const [what, items] of [
  ['lost', report.lost],
  ['duplicated', report.duplicated],
  ['stuck', report.stuck],
  ['crashed', report.crashes],
] as const) {
  for (const item of items.slice(0, 20)) process.stdout.write(`${what}: ${item}\n`);
}
process.exit(report.ok ? 0 : 1);
