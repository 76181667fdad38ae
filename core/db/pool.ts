import pg from 'pg';

/** A connection pool for the product's database; callers end() it on shutdown. */
export function createPool(databaseUrl: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    // fail a request quickly when PostgreSQL is down instead of queueing it forever
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'hf-funnel',
    // JIT compiles a query when its estimated cost is high, as the admin's drop-off over every flow
    // is: compiling took 0.2 to 0.4 s there for a query that runs in about as long (decision 0043).
    // Nothing this product runs is long enough to repay it.
    options: '-c jit=off',
  });
  // A client losing its connection (PostgreSQL restarted, its backend terminated, a failover)
  // emits 'error'; without a listener Node would end the process. Idle clients emit on the pool;
  // a checked-out one emits on itself, and the query in flight (or the next one) fails with the
  // same error, which fails that one request or job (inTransaction then destroys the client).
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}
