import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownTable } from './markdown-table.js';
import { withoutComments } from './sql-writes.js';

// docs/architecture.md's "Grading paths" lists every place a result is graded; this keeps it true.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GRADERS = /\b(gradeAssessment|cannedResult)\s*\(/g;
/** The engine itself, which defines them. */
const ENGINE = 'machines/grading/';
const PARTS = ['machines', 'core', 'server', 'workers', 'web/src', 'scripts'];
const TEST = /\.(test|int\.test|e2e\.test)\.tsx?$|\.fixtures\.ts$/;
const TOP_LEVEL = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?\s+|const\s+|let\s+|class\s+)(\w+)/;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('dist') ? [] : sources(file);
    return /\.tsx?$/.test(entry.name) && !TEST.test(entry.name) && !file.startsWith(ENGINE) ? [file] : [];
  });
}

/** The top-level declaration a position of `source` is in (Prettier keeps those at the line's start). */
function declarationAt(source: string, index: number): string {
  const lines = source.slice(0, index).split('\n').reverse();
  for (const line of lines) {
    const name = TOP_LEVEL.exec(line)?.[1];
    if (name) return name;
  }
  return '(module)';
}

/** Every call of the graders outside the engine and the tests, as `file declaration callee`. */
function callSites(): string[] {
  const sites = new Set<string>();
  for (const file of PARTS.flatMap(sources)) {
    const source = withoutComments(readFileSync(path.join(ROOT, file), 'utf8'));
    for (const match of source.matchAll(GRADERS)) sites.add(`${file} ${declarationAt(source, match.index)} ${match[1]}`);
  }
  return [...sites].sort();
}

const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

const rows = markdownTable(readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'), 'Grading paths').map(
  ([pathName, file, declarations, calls]) => ({
    path: pathName!,
    file: codeSpans(file!)[0]!,
    declarations: codeSpans(declarations!),
    calls: codeSpans(calls!),
  }),
);

describe('docs/architecture.md, "Grading paths"', () => {
  it('lists every call of gradeAssessment and cannedResult, and none that is gone', () => {
    const listed = new Set(
      rows.flatMap((row) => row.declarations.flatMap((name) => row.calls.map((call) => `${row.file} ${name} ${call}`))),
    );
    expect([...listed].sort()).toEqual(callSites());
  });

  it.each(rows.map((row) => [row.path, row] as const))('%s: names a declaration of its file', (_path, row) => {
    expect(existsSync(path.join(ROOT, row.file)), `${row.file} does not exist`).toBe(true);
    const source = readFileSync(path.join(ROOT, row.file), 'utf8');
    for (const name of row.declarations)
      expect(source).toMatch(new RegExp(`^(export )?(async )?(function|const|let|class) ${name}\\b`, 'm'));
  });

  it('names the entry points it describes', () => {
    const entries = rows.flatMap((row) => codeSpans(row.path).filter((span) => /^[a-z]\w+$/i.test(span)));
    const everything = PARTS.flatMap(sources)
      .map((file) => readFileSync(path.join(ROOT, file), 'utf8'))
      .join('\n');
    for (const entry of entries)
      expect(everything, `${entry} is declared nowhere`).toMatch(new RegExp(`\\b(function|const|let|async) ${entry}\\b|\\b${entry}[:(]`));
  });
});
