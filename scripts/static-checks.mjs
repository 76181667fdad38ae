// The checks that need no services: the three typechecks (the whole tree, then machines/ without
// DOM or Node and web/src without Node), ESLint with the part boundaries, Prettier, knip, the
// import-cycle check, and the owner rule (SQL that writes a table only in its owner, decision 0037).
// `npm test` runs them before the suite; `npm run lint` runs them alone.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/ensure.mjs';

const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);

/** The folders the cycle check reads: every part's source and tests. */
const CRUISED = ['machines', 'core', 'server', 'workers', 'web/src', 'web/e2e', 'scripts', 'test'];

// Each check keeps what it learned under .data/static-checks/ (git-ignored), so a second run reads
// only what changed: tsc's incremental build info, ESLint's, Prettier's, knip's and the cycle check's caches.
const CACHE = path.join(ROOT, '.data', 'static-checks');
const tsc = (project, name) => [
  bin('typescript', 'bin/tsc'),
  ['--noEmit', '--incremental', '--tsBuildInfoFile', path.join(CACHE, `${name}.tsbuildinfo`), '-p', project],
];

const CHECKS = [
  ['Typecheck (tsc --noEmit)', ...tsc(ROOT, 'root')],
  ['Typecheck machines/ without DOM or Node', ...tsc(path.join(ROOT, 'machines'), 'machines')],
  ['Typecheck web/src without Node', ...tsc(path.join(ROOT, 'web'), 'web')],
  [
    'Lint and boundaries (eslint)',
    bin('eslint', 'bin/eslint.js'),
    ['--max-warnings', '0', '--cache', '--cache-strategy', 'content', '--cache-location', path.join(CACHE, 'eslint/'), '.'],
  ],
  [
    'Format (prettier --check)',
    bin('prettier', 'bin/prettier.cjs'),
    ['--check', '--log-level', 'warn', '--cache', '--cache-location', path.join(CACHE, 'prettier'), '.'],
  ],
  [
    'Unused files, exports and dependencies (knip)',
    bin('knip', 'bin/knip.js'),
    ['--no-progress', '--cache', '--cache-location', path.join(CACHE, 'knip')],
  ],
  [
    'No import cycles (dependency-cruiser)',
    bin('dependency-cruiser', 'bin/dependency-cruise.mjs'),
    ['--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err', ...CRUISED],
  ],
  [
    'Each table written only by its owner (core/db/table-owners.ts)',
    bin('tsx', 'dist/cli.mjs'),
    [path.join(ROOT, 'scripts', 'table-owners.ts')],
  ],
];

/** Runs one check, its output held until it ends so parallel checks never interleave. */
function runCheck([name, script, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${name} ${status === 0 ? 'passed' : 'failed'} (${seconds} s)\n${Buffer.concat(output).toString()}`);
      resolve(status === 0);
    });
  });
}

/**
 * Runs every check (all of them, so one run reports every kind of finding), as many at once as the
 * machine has cores; resolves true when all pass.
 */
export async function runStaticChecks() {
  const queue = [...CHECKS];
  let passed = true;
  const lane = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) if (!(await runCheck(check))) passed = false;
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), CHECKS.length) }, lane));
  return passed;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit((await runStaticChecks()) ? 0 : 1);
