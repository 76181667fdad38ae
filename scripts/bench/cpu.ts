import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used, and those of its children it has waited for (/proc/<pid>/stat). */
export function cpuOfPid(pid: number | string): { own: number; reaped: number; comm: string } | null {
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

const PARTS = ['server', 'worker', 'postgres', 'redis', 'bench', 'postgresMachine'] as const;

/**
 * CPU ms (per flow, once spent) of each part. `postgres` is the bench database's own backends;
 * `postgresMachine` every PostgreSQL process on the machine, shown beside it because other work on
 * a shared machine (other databases' tests) lands there too. Redis is the whole server's.
 */
export type CpuReading = Record<(typeof PARTS)[number], number>;

/** A reading, with each backend of the bench database by pid (its CPU is charged by difference). */
export interface CpuSnapshot {
  parts: CpuReading;
  backends: Map<number, number>;
}

/** CPU seconds used so far by each part (the stores only when they run on this machine). */
export async function readCpu(pids: CpuParts, pool: pg.Pool): Promise<CpuSnapshot> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  const backends = new Map(
    rows.flatMap((row) => {
      const cpu = cpuOfPid(row.pid);
      return cpu ? [[row.pid, cpu.own] as [number, number]] : [];
    }),
  );
  const usage = process.cpuUsage();
  return {
    parts: {
      server: cpuOfPid(pids.server)?.own ?? NaN,
      worker: cpuOfPid(pids.worker)?.own ?? NaN,
      postgres: 0,
      redis: cpuOfCommand('redis-server'),
      bench: (usage.user + usage.system) / 1e6,
      postgresMachine: cpuOfCommand('postgres'),
    },
    backends,
  };
}

/**
 * CPU milliseconds per flow each part spent between two readings. A backend of the bench database
 * is charged what it used since the first reading (all it used, when it started since); one that
 * ended in between is not counted (the pools keep theirs open while they work).
 */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot, flows: number): CpuReading {
  const spent = Object.fromEntries(PARTS.map((part) => [part, ((after.parts[part] - before.parts[part]) * 1000) / flows])) as CpuReading;
  let backends = 0;
  for (const [pid, seconds] of after.backends) backends += seconds - (before.backends.get(pid) ?? 0);
  spent.postgres = (backends * 1000) / flows;
  return spent;
}

/** CPU ms per flow over readings taken in turns (each of `flows` flows), as if read across them all. */
export function cpuOverRounds(rounds: Array<{ spent: CpuReading; flows: number }>): CpuReading {
  const flows = rounds.reduce((sum, round) => sum + round.flows, 0);
  return Object.fromEntries(
    PARTS.map((part) => [part, rounds.reduce((sum, round) => sum + round.spent[part] * round.flows, 0) / flows]),
  ) as CpuReading;
}

/** What the system under test spent per flow: the two processes and the stores, not the load generator (the bench). */
export function systemCpu(spent: CpuReading): number {
  return spent.server + spent.worker + spent.postgres + spent.redis;
}

/** CPU milliseconds per flow of each part, as one line. */
export function cpuLine(label: string, spent: CpuReading): string {
  const parts = PARTS.map((part) => `${part === 'postgresMachine' ? 'every postgres on the machine' : part} ${spent[part].toFixed(2)}`);
  return `${label}: CPU ms per flow: ${parts.join(', ')}; system (server, worker, postgres, redis) ${systemCpu(spent).toFixed(2)}`;
}
