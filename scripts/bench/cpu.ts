import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used, and those of its children it has waited for (/proc/<pid>/stat). */
function cpuOfPid(pid: number | string): { own: number; reaped: number; comm: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may hold spaces: the fields after it are fixed
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]) / TICKS_PER_SECOND);
    return { own: utime! + stime!, reaped: cutime! + cstime!, comm };
  } catch {
    return null; // gone meanwhile
  }
}

/**
 * CPU seconds used so far by every process of a command (`postgres`, `redis-server`), counting
 * the ones that have ended: a PostgreSQL backend's time moves to the postmaster when it exits.
 */
function cpuOfCommand(command: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cpu = cpuOfPid(entry);
    if (cpu?.comm === command) total += cpu.own + cpu.reaped;
  }
  return total;
}

/** The parts whose CPU a run is charged with: the two processes under test, the stores, and the bench itself. */
export interface CpuParts {
  server: number;
  worker: number;
}

export type CpuReading = Record<'server' | 'worker' | 'postgres' | 'redis' | 'bench', number>;

/** CPU seconds used so far by each part (the stores only when they run on this machine). */
export function readCpu(pids: CpuParts): CpuReading {
  const usage = process.cpuUsage();
  return {
    server: cpuOfPid(pids.server)?.own ?? NaN,
    worker: cpuOfPid(pids.worker)?.own ?? NaN,
    postgres: cpuOfCommand('postgres'),
    redis: cpuOfCommand('redis-server'),
    bench: (usage.user + usage.system) / 1e6,
  };
}

/** CPU milliseconds per flow each part spent between two readings. */
export function cpuSpent(before: CpuReading, after: CpuReading, flows: number): CpuReading {
  const parts = Object.keys(before) as Array<keyof CpuReading>;
  return Object.fromEntries(parts.map((part) => [part, ((after[part] - before[part]) * 1000) / flows])) as CpuReading;
}

/** What the system under test spent per flow: the two processes and the stores, not the load generator (the bench). */
export function systemCpu(spent: CpuReading): number {
  return spent.server + spent.worker + spent.postgres + spent.redis;
}

/** CPU milliseconds per flow of each part, as one line. */
export function cpuLine(label: string, spent: CpuReading): string {
  const parts = (Object.keys(spent) as Array<keyof CpuReading>).map((part) => `${part} ${spent[part].toFixed(2)}`);
  const all = Object.values(spent).reduce((sum, ms) => sum + ms, 0);
  return `${label}: CPU ms per flow: ${parts.join(', ')}; system (all but bench) ${systemCpu(spent).toFixed(2)}; all ${all.toFixed(2)}`;
}
