import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDatabase } from '#test/helpers.js';
import { createPool } from './pool.js';
import { inTransaction, isConnectionLost } from './transaction.js';

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

/** A pool of the product's kind on a scratch database with a table `marks`, and a pool outside it that can terminate its backends. */
async function poolsOnScratch(): Promise<{ pool: pg.Pool; admin: pg.Pool }> {
  const url = await scratchDatabase({ migrated: false });
  const pool = createPool(url, 2);
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  pools.push(pool, admin);
  await admin.query('CREATE TABLE marks (attempt int NOT NULL)');
  return { pool, admin };
}

/** Terminates a backend and waits until it has exited (PostgreSQL 14's timeout argument). */
const terminate = (admin: pg.Pool, pid: number) => admin.query('SELECT pg_terminate_backend($1, 10000)', [pid]);
const backendPid = async (client: pg.PoolClient) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
const marks = async (admin: pg.Pool) => (await admin.query<{ attempt: number }>('SELECT attempt FROM marks ORDER BY attempt')).rows;

describe('a transaction whose connection is lost (decision 0051)', () => {
  it('before its COMMIT is replayed once on a fresh connection, when asked: the lost attempt leaves nothing', async () => {
    const { pool, admin } = await poolsOnScratch();
    const retried: Error[] = [];
    let attempts = 0;
    const result = await inTransaction(
      pool,
      async (client) => {
        attempts += 1;
        await client.query('INSERT INTO marks VALUES ($1)', [attempts]);
        // the first attempt's own backend is terminated between two of its statements
        if (attempts === 1) await terminate(admin, await backendPid(client));
        await client.query('SELECT 1');
        return attempts;
      },
      { retryIfConnectionLost: { onRetry: (error) => retried.push(error) } },
    );
    expect(result).toBe(2);
    expect(retried).toHaveLength(1);
    expect(isConnectionLost(retried[0])).toBe(true);
    expect(await marks(admin)).toEqual([{ attempt: 2 }]);
  });

  it('is replayed only once: a second loss fails the transaction', async () => {
    const { pool, admin } = await poolsOnScratch();
    let attempts = 0;
    const failing = inTransaction(
      pool,
      async (client) => {
        attempts += 1;
        await terminate(admin, await backendPid(client));
        await client.query('SELECT 1');
      },
      { retryIfConnectionLost: { onRetry: () => {} } },
    );
    await expect(failing).rejects.toSatisfy(isConnectionLost);
    expect(attempts).toBe(2);
  });

  it('when COMMIT was already sent is not replayed: its outcome is unknown', async () => {
    const { pool, admin } = await poolsOnScratch();
    const retried: Error[] = [];
    let attempts = 0;
    const failing = inTransaction(
      pool,
      async (client) => {
        attempts += 1;
        await client.query('INSERT INTO marks VALUES ($1)', [attempts]);
        const pid = await backendPid(client);
        // the backend is terminated as the COMMIT goes out
        const query = client.query.bind(client) as (text: string) => Promise<unknown>;
        (client as { query: unknown }).query = async (text: unknown, ...rest: unknown[]) => {
          if (text === 'COMMIT') await terminate(admin, pid);
          return (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest);
        };
      },
      { retryIfConnectionLost: { onRetry: (error) => retried.push(error) } },
    );
    await expect(failing).rejects.toSatisfy(isConnectionLost);
    expect(attempts).toBe(1);
    expect(retried).toHaveLength(0);
    expect(await marks(admin)).toEqual([]);
  });

  it('is not replayed unless asked, and an ordinary error never is', async () => {
    const { pool, admin } = await poolsOnScratch();
    let attempts = 0;
    const lost = inTransaction(pool, async (client) => {
      attempts += 1;
      await terminate(admin, await backendPid(client));
      await client.query('SELECT 1');
    });
    await expect(lost).rejects.toSatisfy(isConnectionLost);
    expect(attempts).toBe(1);

    const retried: Error[] = [];
    const refused = inTransaction(pool, (client) => client.query('INSERT INTO marks VALUES (NULL)'), {
      retryIfConnectionLost: { onRetry: (error) => retried.push(error) },
    });
    await expect(refused).rejects.toMatchObject({ code: '23502' });
    expect(retried).toHaveLength(0);
  });
});
