/*
 * `npm run restore -- FILE`: a backup made by `npm run backup` into an empty database (decision
 * 0052): DATABASE_URL's, or the embedded PostgreSQL's (a new DATA_DIR gives a new, empty one).
 * Redis needs nothing: started on the restored database, the processes claim a queue prefix of
 * its own and the outbox relay rebuilds the queues from the jobs table, timers at their due times.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfigOrExit } from '#core/config/index.js';
import { findPgTool, PgToolMissingError, serverMajorVersion, toolConnection } from './services/pg-tools.js';
import { connectableDatabase } from './services/postgres.js';

const USAGE = 'Usage: npm run restore -- FILE (a backup made by `npm run backup`)';

const argument = process.argv[2];
if (!argument) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const file = path.resolve(argument);
if (!existsSync(file)) {
  process.stderr.write(`No backup at ${file}.\n${USAGE}\n`);
  process.exit(2);
}
const config = loadConfigOrExit();

class NotEmptyError extends Error {}

/**
 * Restoring over live data would mix two histories: only an empty database is restored into.
 * Resolves with whether its PostgreSQL was built with lz4, which the dump's columns name (decision
 * 0062): one without it (the embedded PostgreSQL) restores them with its default compression instead.
 */
async function emptyTarget(url: string, name: string): Promise<{ lz4: boolean }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const tables = await client.query("SELECT 1 FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') LIMIT 1");
    if (tables.rowCount) {
      throw new NotEmptyError(
        `Database ${name} is not empty: restore into an empty one (set DATABASE_URL to a new database, or DATA_DIR to a new folder for the embedded PostgreSQL).`,
      );
    }
    const lz4 = await client.query("SET default_toast_compression = 'lz4'").then(
      () => true,
      () => false,
    );
    return { lz4 };
  } finally {
    await client.end();
  }
}

const database = await connectableDatabase(config.DATABASE_URL, config.DATA_DIR);
const databaseName = new URL(database.url).pathname.slice(1);
let code = 0;
try {
  const target = await emptyTarget(database.url, databaseName);
  const pgRestore = findPgTool('pg_restore', await serverMajorVersion(database.url));
  const connection = toolConnection(database.url);
  // one transaction: a restore that fails half-way leaves the database empty, to try again
  const options = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction'];
  if (!target.lz4) options.push('--no-toast-compression');
  const restored = spawnSync(pgRestore, [...options, '--dbname', connection.url, file], {
    env: connection.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (restored.status !== 0) throw new Error(`pg_restore failed (${restored.error?.message ?? `exit ${restored.status}`})`);
  process.stdout.write(
    `Restored ${file} into database ${databaseName}. Start the processes (npm start): they rebuild the queues from the jobs table.\n`,
  );
} catch (error) {
  const known = error instanceof PgToolMissingError || error instanceof NotEmptyError;
  process.stderr.write(`${known ? error.message : `Restore failed: ${error instanceof Error ? error.message : String(error)}`}\n`);
  code = 1;
} finally {
  await database.stop();
}
process.exit(code);
