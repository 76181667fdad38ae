import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { flowMachineVersions, writeVersion, type MachineVersioning } from '#machines/flow-versions.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import type { WriteVersions } from './flow-store.js';

/** The sorted set of live processes under a queue prefix: each member one process, scored by when it expires (ms). */
export const fleetKey = (prefix: string) => `${prefix}:fleet`;

/** How often a process says it lives, and how long after its last word it counts as gone (a SIGKILLed one). */
const BEAT_MS = 2_000;
const EXPIRES_MS = 15_000;

interface FleetOptions {
  /** The machine versions this process runs (tests pass an older build's). */
  versions?: Readonly<Record<FlowMachineName, MachineVersioning>>;
  beatMs?: number;
  expiresMs?: number;
  /** Called with the machines whose flows every live process now runs at this build's version. */
  onSettled?: (machines: FlowMachineName[]) => void;
  log?: { warn: (object: object, message: string) => void };
}

/**
 * The machine versions of every live server and worker of one system (decision 0057), known by a
 * heartbeat each process writes into Redis under its queue prefix. While a process of an older
 * version of a machine lives, this one writes that machine's flows at the older version when the
 * step down is reversible (writeVersions), so that no older process meets a flow it cannot run;
 * once every live process runs this version, `onSettled` says so, for the server to move the
 * stored flows up.
 *
 * Redis losing the set (a FLUSHALL) forgets the others until their next beat, 2 s later: a newer
 * process may meanwhile write its own version, which an older one answers 503 (the fallback). A
 * beat that fails (Redis down) keeps what was last known.
 */
export class MachineFleet {
  private readonly versions: Readonly<Record<FlowMachineName, MachineVersioning>>;
  private readonly member: string;
  /** The oldest version of each machine a live process runs, as last read. */
  private oldest: Partial<Record<FlowMachineName, number>> = {};
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    role: 'server' | 'worker',
    private readonly options: FleetOptions = {},
  ) {
    this.versions = options.versions ?? flowMachineVersions;
    const runs = Object.fromEntries(Object.entries(this.versions).map(([machine, versioning]) => [machine, versioning.current]));
    this.member = JSON.stringify({ id: randomUUID(), role, pid: process.pid, versions: runs });
  }

  /** Joins the fleet and reads it once; then beats every 2 s until stop(). */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.beatMs ?? BEAT_MS);
    this.timer.unref();
  }

  /** Leaves the fleet: called last in a graceful stop, once nothing of this process can write a flow any more. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.redis.zrem(fleetKey(this.prefix), this.member).catch(() => {});
  }

  /** The version this process writes each machine's flows at now. */
  readonly writeVersions: WriteVersions = (machine) =>
    writeVersion(this.versions[machine], this.oldest[machine] ?? this.versions[machine].current);

  /** The machines whose flows this process writes at its own version. */
  settled(): FlowMachineName[] {
    return (Object.keys(this.versions) as FlowMachineName[]).filter(
      (machine) => this.writeVersions(machine) === this.versions[machine].current,
    );
  }

  /** Says this process lives and reads who else does; one at a time. */
  refresh(): Promise<void> {
    this.beating ??= this.beat().finally(() => {
      this.beating = null;
    });
    return this.beating;
  }

  private async beat(): Promise<void> {
    const key = fleetKey(this.prefix);
    const now = Date.now();
    try {
      const replies = await this.redis
        .multi()
        .zadd(key, String(now + (this.options.expiresMs ?? EXPIRES_MS)), this.member)
        .zremrangebyscore(key, '-inf', String(now))
        .zrange(key, '0', '-1')
        .exec();
      const listed = replies?.[2]?.[1];
      if (!Array.isArray(listed)) return;
      const before = this.settled();
      this.oldest = oldestVersions(listed as string[]);
      const settledNow = this.settled().filter((machine) => !before.includes(machine));
      if (settledNow.length) this.options.onSettled?.(settledNow);
    } catch (error) {
      this.options.log?.warn({ err: error }, 'machine fleet heartbeat failed; keeping the last known versions');
    }
  }
}

/** The oldest version of each machine among the members' (an unreadable member is skipped). */
function oldestVersions(members: string[]): Partial<Record<FlowMachineName, number>> {
  const oldest: Partial<Record<FlowMachineName, number>> = {};
  for (const member of members) {
    let versions: Record<string, unknown>;
    try {
      versions = (JSON.parse(member) as { versions?: Record<string, unknown> }).versions ?? {};
    } catch {
      continue;
    }
    for (const [machine, version] of Object.entries(versions)) {
      if (typeof version !== 'number') continue;
      const name = machine as FlowMachineName;
      oldest[name] = Math.min(oldest[name] ?? version, version);
    }
  }
  return oldest;
}
