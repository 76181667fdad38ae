// `npm test`: the whole suite on a fresh clone. Installs and builds what is missing, runs the static
// checks (typechecks, lint with the part boundaries, format, knip), then every vitest project (unit,
// integration against real PostgreSQL and Redis, browser end-to-end). Extra arguments go to vitest
// (and skip the static checks unless --typecheck is among them): `npm test -- --project unit`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureInstalled, ensureWebBuilt } from './lib/ensure.mjs';
import { runStaticChecks } from './static-checks.mjs';

ensureInstalled();
ensureWebBuilt();

const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);
const args = process.argv.slice(2);

if (!args.length || args.includes('--typecheck')) {
  if (!(await runStaticChecks())) {
    process.stdout.write('Static checks failed.\n0 passed, 1 failed\n');
    process.exit(1);
  }
  process.stdout.write('Static checks passed.\n');
}

const resultsDir = path.join(ROOT, '.data', 'test-results');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = path.join(resultsDir, 'vitest.json');
rmSync(resultsFile, { force: true });
const vitestArgs = args.filter((arg) => arg !== '--typecheck');
const vitest = spawnSync(
  process.execPath,
  [bin('vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...vitestArgs],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR } },
);

// One plain closing line that any CI can read, whatever vitest printed above it.
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const failed = results.numFailedTests + filesFailedOutsideTests(results);
  const skipped = results.numPendingTests + results.numTodoTests;
  process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
}
process.exit(vitest.status ?? 1);

// A file that failed to load or in a hook has no failed test of its own; it still counts as a failure.
function filesFailedOutsideTests(results) {
  return results.testResults.filter((file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'))
    .length;
}
