// Shared by `npm start` and `npm test`, which must work on a fresh clone: install dependencies
// when package-lock.json changed since the last install, and rebuild the web app when its sources
// changed since the last build. Plain Node (no dependencies): it runs before anything is installed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL_STAMP = path.join(ROOT, 'node_modules', '.hf-install-stamp');
const BUILD_STAMP = path.join(ROOT, 'web', 'dist', '.hf-build-stamp');
const WEB_INPUTS = ['web', 'machines', 'package-lock.json'];
const SERVER_STAMP = path.join(ROOT, 'dist', '.hf-build-stamp');
const SERVER_INPUTS = ['core', 'server', 'workers', 'machines', 'package-lock.json'];
const SKIP = new Set(['node_modules', 'dist', 'e2e', '.data']);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    process.stderr.write(`\n${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}).\n`);
    process.exit(result.status ?? 1);
  }
}

function readStamp(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** Runs `npm ci` unless node_modules was installed from this exact lockfile. */
export function ensureInstalled() {
  const lock = readFileSync(path.join(ROOT, 'package-lock.json'));
  const stamp = createHash('sha256').update(lock).update(process.version).digest('hex');
  if (readStamp(INSTALL_STAMP) === stamp) return;
  process.stdout.write('Installing dependencies (npm ci) ...\n');
  // the build tools (Vite, esbuild's config) are dev dependencies, which NODE_ENV=production would leave out
  run('npm', ['ci', '--include=dev', '--no-audit', '--no-fund', '--loglevel=error']);
  writeFileSync(INSTALL_STAMP, stamp);
}

function fingerprint(entry, hash) {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return;
  const stat = statSync(full);
  if (stat.isDirectory()) {
    for (const name of readdirSync(full).sort()) {
      if (!SKIP.has(name) && !/\.(test|int\.test|e2e\.test)\.tsx?$/.test(name)) fingerprint(path.join(entry, name), hash);
    }
  } else {
    hash.update(`${entry}\0${stat.size}\0${stat.mtimeMs}\0`);
  }
}

/** Builds web/ with Vite unless web/dist was built from the current sources. */
export function ensureWebBuilt() {
  const hash = createHash('sha256');
  for (const entry of WEB_INPUTS) fingerprint(entry, hash);
  const stamp = hash.digest('hex');
  if (readStamp(BUILD_STAMP) === stamp && existsSync(path.join(ROOT, 'web', 'dist', 'index.html'))) return;
  process.stdout.write('Building the web app (vite build) ...\n');
  run(process.execPath, [
    path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--config',
    'web/vite.config.ts',
    '--logLevel',
    'warn',
  ]);
  writeFileSync(BUILD_STAMP, stamp);
}

/** How a process of this project is bundled for plain Node (esbuild options; dependencies stay external). */
export const NODE_BUNDLE = {
  absWorkingDir: ROOT,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

/**
 * Bundles the server and the worker into dist/ (dependencies stay external) unless dist/ was built
 * from the current sources: in production they run as plain JavaScript, which starts faster and
 * needs ~50 MB less memory per process than compiling TypeScript on the fly.
 */
export async function ensureServerBuilt() {
  const hash = createHash('sha256');
  for (const entry of SERVER_INPUTS) fingerprint(entry, hash);
  const stamp = hash.digest('hex');
  const outputs = ['dist/server/main.mjs', 'dist/workers/main.mjs'].map((file) => path.join(ROOT, file));
  if (readStamp(SERVER_STAMP) === stamp && outputs.every((file) => existsSync(file))) return;
  process.stdout.write('Building the server and worker (esbuild) ...\n');
  const { build } = await import('esbuild');
  await build({ ...NODE_BUNDLE, entryPoints: { 'server/main': 'server/main.ts', 'workers/main': 'workers/main.ts' }, outdir: 'dist' });
  // migrate.ts finds its SQL files beside itself, which in the bundle is dist/server/
  rmSync(path.join(ROOT, 'dist', 'server', 'migrations'), { recursive: true, force: true });
  cpSync(path.join(ROOT, 'core', 'db', 'migrations'), path.join(ROOT, 'dist', 'server', 'migrations'), { recursive: true });
  writeFileSync(SERVER_STAMP, stamp);
}
