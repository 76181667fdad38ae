/*
 * `npm run backup [-- FILE]`: the whole database in pg_dump's custom format (decision 0052), from
 * DATABASE_URL or the embedded PostgreSQL (the running `npm start`'s, or one started for this).
 * Redis is not backed up: the processes rebuild the queues from the jobs table.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from '#core/config/index.js';
import { findPgTool, PgToolMissingError, serverMajorVersion, toolConnection } from './services/pg-tools.js';
import { connectableDatabase } from './services/postgres.js';

const config = loadConfigOrExit();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = path.resolve(process.argv[2] ?? path.join(config.DATA_DIR, 'backups', `hf-${stamp}.dump`));

const database = await connectableDatabase(config.DATABASE_URL, config.DATA_DIR);
let code = 0;
try {
  const major = await serverMajorVersion(database.url);
  const pgDump = findPgTool('pg_dump', major);
  mkdirSync(path.dirname(file), { recursive: true });
  // written beside the target and renamed when complete: a half-written backup never bears its name
  const partial = `${file}.partial`;
  const connection = toolConnection(database.url);
  const dumped = spawnSync(pgDump, ['--format=custom', '--file', partial, '--dbname', connection.url], {
    env: connection.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (dumped.status !== 0) {
    rmSync(partial, { force: true });
    throw new Error(`pg_dump failed (${dumped.error?.message ?? `exit ${dumped.status}`})`);
  }
  renameSync(partial, file);
  const databaseName = new URL(database.url).pathname.slice(1);
  process.stdout.write(`Backed up database ${databaseName} (PostgreSQL ${major}) to ${file} (${statSync(file).size} bytes).\n`);
} catch (error) {
  process.stderr.write(
    `${error instanceof PgToolMissingError ? error.message : `Backup failed: ${error instanceof Error ? error.message : String(error)}`}\n`,
  );
  code = 1;
} finally {
  await database.stop();
}
process.exit(code);
