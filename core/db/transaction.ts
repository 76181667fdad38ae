import type pg from 'pg';

/** Asks inTransaction to replay `work` once on a fresh connection when the first one was lost before COMMIT was sent (decision 0051). */
export interface RetryIfConnectionLost {
  /** Told of the lost connection's error just before the replay (to log it). */
  onRetry: (error: Error) => void;
}

/**
 * Errors that say the connection itself is gone: the backend was terminated or the server shut
 * down (57P01, 57P02), the connection failed (class 08), the socket was reset or closed, or the
 * client already knows its connection is dead. A timeout is not one: the backend may still be
 * running the transaction.
 */
const LOST_CODES = new Set(['57P01', '57P02', 'ECONNRESET', 'EPIPE']);
const LOST_MESSAGES = /^(Connection terminated( unexpectedly)?|Client has encountered a connection error and is not queryable)$/;

export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (LOST_CODES.has(code) || code.startsWith('08'))) return true;
  return LOST_MESSAGES.test(error.message);
}

/**
 * Runs `work` on one pooled client inside BEGIN/COMMIT; any throw rolls it back and is rethrown.
 * The one way this codebase opens a transaction. A client whose connection broke (PostgreSQL
 * restarted, the backend was terminated, a failover) fails only this transaction: its ROLLBACK
 * fails too, so it is destroyed rather than handed to the next caller, and the pool makes a new one.
 *
 * With `retryIfConnectionLost`, a transaction whose connection was lost before COMMIT was sent
 * (so PostgreSQL rolled it back: a transaction never commits without its COMMIT) runs once more
 * on a fresh connection. Never after COMMIT was sent: its outcome is unknown, and a replay could
 * do the work twice. Only for work whose replay is safe: nothing but its own writes, which the
 * lost attempt's rollback undid.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options: { retryIfConnectionLost?: RetryIfConnectionLost } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    let commitSent = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      commitSent = true;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      const retry = options.retryIfConnectionLost;
      // the failed ROLLBACK confirms the connection is gone, not just that an error carried its code
      if (!retry || attempt > 1 || commitSent || !broken || !isConnectionLost(error)) throw error;
      retry.onRetry(error as Error);
    } finally {
      client.release(broken);
    }
  }
}
