import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rule against fixed waits in tests (eslint.config.js, docs/testing.md), as ESLint applies it,
// on code that is never written to disk. Only no-restricted-syntax runs (no type information needed).
const eslint = new ESLint({
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax',
});

async function refused(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('fixed waits in tests', () => {
  it.each([
    ['server/routes/example.int.test.ts', 'await new Promise((resolve) => setTimeout(resolve, 300));'],
    ['workers/example.int.test.ts', 'await new Promise((resolve) => globalThis.setTimeout(resolve, 1_500));'],
    ['web/src/lib/example.test.tsx', 'const ms = 20; await new Promise((resolve) => setTimeout(resolve, ms));'],
    ['web/e2e/example.e2e.test.ts', "import { setTimeout as sleep } from 'node:timers/promises';"],
    ['web/e2e/example.e2e.test.ts', 'await page.waitForTimeout(500);'],
    ['test/journey.ts', 'const take = () => (frames.length ? done() : setTimeout(take, 5));'],
  ])('%s may not run %s', async (filePath, code) => {
    expect(await refused(filePath, code)).toEqual([expect.stringContaining('not for a fixed time')]);
  });

  it.each([
    // a turn of the event loop is not a wait for time
    ['machines/example.test.ts', 'await new Promise((resolve) => setTimeout(resolve, 0));'],
    // the one poll interval, and the product's own timers
    ['test/until.ts', 'await new Promise((resolve) => setTimeout(resolve, 50));'],
    ['server/routes/example.ts', 'await new Promise((resolve) => setTimeout(resolve, 300));'],
    // a wait nothing can replace, with its reason
    [
      'test/helpers.ts',
      '// eslint-disable-next-line no-restricted-syntax -- nothing announces it\nawait new Promise((resolve) => setTimeout(resolve, 100));',
    ],
  ])('%s may run %s', async (filePath, code) => {
    expect(await refused(filePath, code)).toEqual([]);
  });
});
