import type { FastifyBaseLogger } from 'fastify';

/** Longest a graceful stop may take before the process exits anyway; the supervisor allows 10 s in all. */
const GRACE_MS = 8_000;

/**
 * Runs `stop` once on SIGTERM, SIGINT, SIGHUP or when the parent's IPC channel closes, then exits
 * 0 (1 if stopping failed or overran its grace period).
 */
export function onShutdown(log: Pick<FastifyBaseLogger, 'info' | 'error'>, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('graceful shutdown overran; exiting');
      process.exit(1);
    }, GRACE_MS);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => handler(signal));
  if (process.send) process.on('disconnect', () => handler('parent exited'));
}
