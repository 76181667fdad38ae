// The checks that need no services: the three typechecks (the whole tree, then machines/ without
// DOM or Node and web/src without Node), ESLint with the part boundaries, Prettier, knip, and the
// owner rule (SQL that writes a table only in its owner, decision 0037).
// `npm test` runs them before the suite; `npm run lint` runs them alone.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/ensure.mjs';

const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);

const CHECKS = [
  ['Typecheck (tsc --noEmit)', bin('typescript', 'bin/tsc'), ['--noEmit', '-p', ROOT]],
  ['Typecheck machines/ without DOM or Node', bin('typescript', 'bin/tsc'), ['--noEmit', '-p', path.join(ROOT, 'machines')]],
  ['Typecheck web/src without Node', bin('typescript', 'bin/tsc'), ['--noEmit', '-p', path.join(ROOT, 'web')]],
  ['Lint and boundaries (eslint)', bin('eslint', 'bin/eslint.js'), ['--max-warnings', '0', '.']],
  ['Format (prettier --check)', bin('prettier', 'bin/prettier.cjs'), ['--check', '--log-level', 'warn', '.']],
  ['Unused files, exports and dependencies (knip)', bin('knip', 'bin/knip.js'), ['--no-progress']],
  [
    'Each table written only by its owner (core/db/table-owners.ts)',
    bin('tsx', 'dist/cli.mjs'),
    [path.join(ROOT, 'scripts', 'table-owners.ts')],
  ],
];

/** Runs every check (all of them, so one run reports every kind of finding); true when all pass. */
export function runStaticChecks() {
  let passed = true;
  for (const [name, script, args] of CHECKS) {
    process.stdout.write(`${name} ...\n`);
    const run = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, stdio: 'inherit' });
    if (run.status !== 0) {
      process.stdout.write(`${name} failed.\n`);
      passed = false;
    }
  }
  return passed;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(runStaticChecks() ? 0 : 1);
