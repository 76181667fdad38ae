import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scratchDatabase } from '#test/helpers.js';
import { until } from '#test/until.js';
import { createPool } from './pool.js';
import { inTransaction } from './transaction.js';

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

/** Terminates the server backend of every connection of `pool`'s application but the caller's own. */
async function terminateBackends(admin: pg.Pool): Promise<number> {
  const killed = await admin.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hf-funnel' AND pid <> pg_backend_pid()",
  );
  return killed.rowCount ?? 0;
}

describe('connections PostgreSQL drops', () => {
  it('a client checked out between two queries of a transaction loses its connection: no crash, that transaction fails, the pool goes on', async () => {
    const url = await scratchDatabase();
    const pool = createPool(url, 2);
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    pools.push(pool, admin);

    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let inside!: (client: pg.PoolClient) => void;
    const started = new Promise<pg.PoolClient>((resolve) => (inside = resolve));
    const failing = inTransaction(pool, async (client) => {
      await client.query('SELECT 1');
      inside(client);
      // waiting on something else (Redis, Stripe) with the transaction open, as real work does
      await paused;
      return client.query('SELECT 2');
    });
    // watched without a listener of the test's own, which would handle the event in the pool's place
    const emitted = vi.spyOn(await started, 'emit');
    expect(await terminateBackends(admin)).toBe(1);
    // the 'error' event of a checked-out client arrives now; unhandled, it would end this process
    await until(() => emitted.mock.calls.some(([event]) => event === 'error'), 5_000, 'the checked-out client was never told');
    resume();
    await expect(failing).rejects.toThrow();

    // the broken client was destroyed, not handed out again
    expect(await inTransaction(pool, async (client) => (await client.query<{ n: number }>('SELECT 3 AS n')).rows[0]!.n)).toBe(3);
    expect((await pool.query<{ n: number }>('SELECT 4 AS n')).rows[0]!.n).toBe(4);
  });

  it('idle clients dropped by PostgreSQL are replaced on the next query', async () => {
    const url = await scratchDatabase();
    const pool = createPool(url, 3);
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    pools.push(pool, admin);
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1'), pool.query('SELECT 1')]);
    const emitted = vi.spyOn(pool, 'emit');
    const killed = await terminateBackends(admin);
    expect(killed).toBeGreaterThan(0);
    // each idle client's loss reaches the pool as an 'error' event (unhandled, it would end this process)
    const lost = () => emitted.mock.calls.filter(([event]) => event === 'error').length;
    await until(() => lost() === killed, 5_000, 'the pool was not told of every dropped client');
    expect((await pool.query<{ n: number }>('SELECT 5 AS n')).rows[0]!.n).toBe(5);
  });
});

describe('connection settings', () => {
  it('runs every query without JIT compilation, whatever its cost estimate (decision 0043)', async () => {
    const pool = createPool(await scratchDatabase(), 2);
    pools.push(pool);
    const [first, second] = await Promise.all([pool.query<{ jit: string }>('SHOW jit'), pool.query<{ jit: string }>('SHOW jit')]);
    expect([first.rows[0]!.jit, second.rows[0]!.jit]).toEqual(['off', 'off']);
  });
});
