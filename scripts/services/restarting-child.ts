import type { ChildProcess } from 'node:child_process';
import { stopChild, waitForReady } from './child.js';

export interface RestartPolicy {
  /** The first restart waits this long; each crash in a row doubles it, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** This many crashes within windowMs mean something is broken for good: give up. */
  maxCrashes: number;
  windowMs: number;
}

/** A process manager's default: quick to come back, and it stops a crash loop within a minute. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { firstDelayMs: 500, maxDelayMs: 8_000, maxCrashes: 5, windowMs: 60_000 };

/**
 * One of `npm start`'s processes (the server, the worker), kept running: when it stops without
 * being asked to it is started again after a backoff, and the log says so; a crash loop (too many
 * crashes in the window) gives up through `onGiveUp`, which stops everything with a clear message.
 */
export class RestartingChild {
  private current: ChildProcess | null = null;
  private crashes: number[] = [];
  private stopping = false;
  private restartTimer?: NodeJS.Timeout;

  constructor(
    private readonly name: string,
    private readonly spawnChild: () => ChildProcess,
    private readonly say: (line: string) => void,
    private readonly onGiveUp: (line: string) => void,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  ) {}

  /** Starts it and waits until it says it is ready (a first start that fails is an error). */
  async start(): Promise<void> {
    await this.launch();
  }

  /** Stops it (SIGTERM, then SIGKILL after `timeoutMs`) and restarts it no more. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    if (this.current) await stopChild(this.current, timeoutMs);
  }

  private async launch(): Promise<void> {
    const child = this.spawnChild();
    this.current = child;
    child.once('exit', (code, signal) => this.exited(child, signal ?? `exit code ${code}`));
    await waitForReady(child, `The ${this.name}`);
    this.say(`The ${this.name} is running (pid ${child.pid}).`);
  }

  private exited(child: ChildProcess, how: string): void {
    if (this.stopping || child !== this.current) return;
    const now = Date.now();
    this.crashes = [...this.crashes.filter((at) => now - at < this.policy.windowMs), now];
    if (this.crashes.length >= this.policy.maxCrashes) {
      this.onGiveUp(
        `The ${this.name} stopped ${this.crashes.length} times within ${this.policy.windowMs / 1000} s (last: ${how}); stopping everything.`,
      );
      return;
    }
    const delay = Math.min(this.policy.firstDelayMs * 2 ** (this.crashes.length - 1), this.policy.maxDelayMs);
    this.say(`The ${this.name} stopped unexpectedly (${how}); restarting it in ${delay / 1000} s.`);
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      // a start that fails ends in another exit, which counts as a crash and is retried in turn
      this.launch().catch(() => {});
    }, delay);
  }
}
