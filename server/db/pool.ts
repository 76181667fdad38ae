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
  });
  // An idle client losing its connection emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  return pool;
}
