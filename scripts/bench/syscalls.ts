import { readFileSync } from 'node:fs';
import type { CpuParts } from './cpu.js';

/*
 * The read and write system calls the server and the worker make per flow (/proc/<pid>/io: syscr,
 * syscw). Nearly every one is a socket's: a statement sent to PostgreSQL and its answer read, a
 * command to Redis, a response, a push. Over loopback TCP a write also runs the receiver's side of
 * the network stack, and the V8 profiles put about half of each process's busy time in them, so
 * they are the count a flow's cost follows.
 */

type Calls = Record<'serverReads' | 'serverWrites' | 'workerReads' | 'workerWrites', number>;

function callsOf(pid: number): { reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? NaN);
  return { reads: field('syscr'), writes: field('syscw') };
}

/** The calls the two processes have made so far. */
export function readCalls(pids: CpuParts): Calls {
  const server = callsOf(pids.server);
  const worker = callsOf(pids.worker);
  return { serverReads: server.reads, serverWrites: server.writes, workerReads: worker.reads, workerWrites: worker.writes };
}

/** Adds up the calls made between readings, round by round, and says them per flow. */
export function callCounter() {
  const total: Calls = { serverReads: 0, serverWrites: 0, workerReads: 0, workerWrites: 0 };
  let flows = 0;
  return {
    add(before: Calls, after: Calls, roundFlows: number): void {
      for (const key of Object.keys(total) as Array<keyof Calls>) total[key] += after[key] - before[key];
      flows += roundFlows;
    },
    line(label: string): string {
      const per = (key: keyof Calls) => (total[key] / flows).toFixed(1);
      return (
        `${label}: system calls per flow: server ${per('serverWrites')} writes, ${per('serverReads')} reads; ` +
        `worker ${per('workerWrites')} writes, ${per('workerReads')} reads`
      );
    },
  };
}
