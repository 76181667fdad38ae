import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import path from 'node:path';
import { spawnTs, stopChild, waitForReady } from './child.js';

export interface RunningService {
  url: string;
  /** A closure, safe to pass around on its own. */
  stop: () => Promise<void>;
}

/** Starts the embedded PostgreSQL with its data in `dataDir` and a database named hf. */
export async function startEmbeddedPostgres(dataDir: string): Promise<RunningService> {
  const child = spawnTs('scripts/services/embedded-postgres.process.ts', [path.resolve(dataDir)]);
  const ready = await waitForReady<{ type: 'ready'; url: string }>(child, 'Embedded PostgreSQL');
  return {
    url: ready.url,
    stop: async () => {
      await stopChild(child, 8_000);
    },
  };
}

/** True when a PostgreSQL at `url` accepts a connection within 2 s. */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The database a command-line tool should use: DATABASE_URL, else the embedded cluster that a
 * running `npm start` advertises, else the embedded cluster started just for this command.
 */
export async function connectableDatabase(databaseUrl: string | undefined, dataDir: string): Promise<RunningService> {
  if (databaseUrl) return { url: databaseUrl, stop: async () => {} };
  const urlFile = `${path.resolve(dataDir, 'postgres')}.url`;
  if (existsSync(urlFile)) {
    const url = readFileSync(urlFile, 'utf8').trim();
    if (await postgresAnswers(url)) return { url, stop: async () => {} };
  }
  return startEmbeddedPostgres(path.join(dataDir, 'postgres'));
}
