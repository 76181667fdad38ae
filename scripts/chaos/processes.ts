import type { ChildProcess } from 'node:child_process';
import { spawnBundle, waitForReady } from '../services/child.js';
import { spawnRedis } from '../services/redis.js';

/**
 * A server or worker process as a process manager keeps it: the harness kills it (a fault) and
 * starts it again, like `npm start`'s supervisor or an orchestrator would. Every exit the harness
 * did not cause is counted as a crash.
 */
export class ManagedProcess {
  private child: ChildProcess | null = null;
  private expectingExit = false;
  readonly crashes: string[] = [];
  private output = '';

  constructor(
    /** 'server', 'worker', or with a number when the run has several: 'server 2'. */
    readonly name: string,
    private entry: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async start(): Promise<void> {
    const child = spawnBundle(this.entry, this.env, 'pipe');
    this.child = child;
    this.expectingExit = false;
    child.stdout?.on('data', (chunk: Buffer) => this.keep(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.keep(chunk));
    child.once('exit', (code, signal) => {
      if (child !== this.child || this.expectingExit) return;
      this.crashes.push(`${this.name} exited by itself (${signal ?? `code ${code}`}); its last lines:\n${this.output.slice(-2_000)}`);
      // a process manager restarts it; so does the harness, or the run could not go on
      void this.start().catch(() => {});
    });
    await waitForReady(child, `The ${this.name}`);
  }

  /** A fault: SIGKILL, the way the OOM killer or a lost machine ends a process. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.expectingExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }

  /** Freezes it (SIGSTOP) or lets it go on (SIGCONT): a harness holds work back for a moment, as a busy machine would. */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void {
    const child = this.child;
    if (child && child.exitCode === null) process.kill(-child.pid!, signal);
  }

  /** A rolling deploy's step: stops it as an orchestrator does (SIGTERM, then waits) and starts `entry`, the new build, in its place. */
  async deploy(entry: string): Promise<void> {
    await this.stop();
    this.entry = entry;
    await this.start();
  }

  /** Ends it (the run is over, or a deploy replaces it). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.expectingExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private keep(chunk: Buffer): void {
    this.output = (this.output + chunk.toString()).slice(-20_000);
  }
}

/** A redis-server of the run's own (AOF on), which the harness can kill and start again on its port. */
export class ManagedRedis {
  private constructor(
    private service: Awaited<ReturnType<typeof spawnRedis>>,
    private readonly dir: string,
  ) {}

  static async start(dir: string): Promise<ManagedRedis> {
    return new ManagedRedis(await spawnRedis(dir), dir);
  }

  get url(): string {
    return this.service.url;
  }

  async killAndRestart(downMs: number): Promise<void> {
    await this.service.kill();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    this.service = await spawnRedis(this.dir, process.env.PATH, { port: this.service.port });
  }

  stop(): Promise<void> {
    return this.service.stop();
  }
}
