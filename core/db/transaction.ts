import type pg from 'pg';

/**
 * Runs `work` on one pooled client inside BEGIN/COMMIT; any throw rolls it back and is rethrown.
 * The one way this codebase opens a transaction. A client whose connection broke (PostgreSQL
 * restarted, the backend was terminated, a failover) fails only this transaction: its ROLLBACK
 * fails too, so it is destroyed rather than handed to the next caller, and the pool makes a new one.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
