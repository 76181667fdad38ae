// The rules that keep the docs true to the tree: every link resolves, every decision is indexed and
// dated, every path docs/architecture.md names exists, and its tables cover every admin route module
// and every effect a machine declares. Pure functions over text, so a test can feed them a probe.
import { markdownTable } from './markdown-table.js';

const README_MAX_LINES = 200;

/** Folders the build writes (git-ignored): named in the docs, absent from a clean clone. */
const BUILT = ['web/dist/', 'web/dist-ssr/', 'dist/'];

/** Relative link targets of a Markdown document: `[text](target)` and `<img src="target">`, without anchors. */
export function relativeLinks(markdown: string): string[] {
  const targets = [
    ...[...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? ''),
    ...[...markdown.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1] ?? ''),
  ];
  return targets.filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#')).map((target) => target.replace(/#.*$/, ''));
}

/** Links of `doc` (a path from the root) whose target does not exist. */
export function brokenLinks(doc: string, markdown: string, exists: (path: string) => boolean): string[] {
  const folder = doc.includes('/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : '';
  return relativeLinks(markdown)
    .filter((target) => !exists(normalise(folder + target)))
    .map((target) => `${doc}: the link to ${target} resolves to nothing`);
}

function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

export function readmeFindings(readme: string): string[] {
  const lines = readme.trimEnd().split('\n').length;
  return lines < README_MAX_LINES ? [] : [`README.md: ${lines} lines; keep it under ${README_MAX_LINES} and move reference into docs/`];
}

/** Each decision record (file name and text) must be in the index and carry a Date and a Status line. */
export function decisionFindings(index: string, records: { file: string; text: string }[]): string[] {
  return records.flatMap(({ file, text }) => [
    ...(index.includes(`](decisions/${file})`) ? [] : [`docs/decisions/${file}: not in the decisions index of docs/architecture.md`]),
    ...(/^Date: \d{4}-\d{2}-\d{2}\. Status: \S/m.test(text) ? [] : [`docs/decisions/${file}: no "Date: YYYY-MM-DD. Status: ..." line`]),
  ]);
}

/** Backticked paths into the tree (`core/db/pool.ts`, `docs/machines/`) that do not exist. */
export function missingPaths(doc: string, markdown: string, exists: (path: string) => boolean): string[] {
  const paths = [...markdown.matchAll(/`((?:machines|core|server|workers|web|scripts|test|docs)\/[\w./-]*)`/g)].map(
    (match) => match[1] ?? '',
  );
  return [...new Set(paths)]
    .filter((path) => !BUILT.some((built) => path.startsWith(built)) && !exists(path.replace(/\/$/, '')))
    .map((path) => `${doc}: \`${path}\` does not exist`);
}

/** Every route module must be named in the "Admin checks" table, and every declared effect in the effects table. */
export function tableFindings(architecture: string, routeModules: string[], effectNames: string[]): string[] {
  const adminCells = markdownTable(architecture, 'Admin checks')
    .map((row) => row[0])
    .join(' ');
  const effectCells = markdownTable(architecture, 'Effects the server performs')
    .map((row) => row[1])
    .join(' ');
  return [
    ...routeModules
      .filter((file) => !adminCells.includes(`\`${file}\``))
      .map((file) => `server/admin/routes/${file}: not in the "Admin checks" table`),
    ...effectNames
      .filter((name) => !effectCells.includes(`\`${name}\``))
      .map((name) => `effect ${name}: not in the "Effects the server performs" table`),
  ];
}
