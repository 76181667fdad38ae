import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flowEffects } from '#machines/index.js';
import { brokenLinks, decisionFindings, missingPaths, readmeFindings, tableFindings } from './docs-check.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => existsSync(path.join(ROOT, file));
const architecture = read('docs/architecture.md');
const decisions = readdirSync(path.join(ROOT, 'docs/decisions'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => ({ file, text: read(`docs/decisions/${file}`) }));
const routeModules = readdirSync(path.join(ROOT, 'server/admin/routes')).filter(
  (file) => file.endsWith('.ts') && !file.includes('.test.') && file !== 'responses.ts',
);
const effectNames = Object.values(flowEffects).flatMap((effects) => Object.keys(effects));
const docs = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

describe('the docs', () => {
  it('keep the README short', () => {
    expect(readmeFindings(read('README.md'))).toEqual([]);
  });

  it('link only to what exists', () => {
    expect(docs.flatMap((doc) => brokenLinks(doc, read(doc), exists))).toEqual([]);
  });

  it('index and date every decision', () => {
    expect(decisionFindings(architecture, decisions)).toEqual([]);
  });

  it('name only paths that exist in architecture.md', () => {
    expect(missingPaths('docs/architecture.md', architecture, exists)).toEqual([]);
  });

  it('cover every admin route module and every effect in architecture.md', () => {
    expect(tableFindings(architecture, routeModules, effectNames)).toEqual([]);
  });
});

describe('the docs rules fail on a probe', () => {
  it('a README of 200 lines', () => {
    expect(readmeFindings('line\n'.repeat(200))).toEqual(['README.md: 200 lines; keep it under 200 and move reference into docs/']);
  });

  it('a link, an image and a path to nothing', () => {
    const probe =
      '[gone](docs/gone.md) [ok](docs/architecture.md#decisions) <img src="docs/none.png"> [web](https://example.com) `core/nowhere.ts` `core/db/`';
    expect(brokenLinks('README.md', probe, exists)).toEqual([
      'README.md: the link to docs/gone.md resolves to nothing',
      'README.md: the link to docs/none.png resolves to nothing',
    ]);
    expect(brokenLinks('docs/admin.md', '[up](../README.md) [side](gone.md)', exists)).toEqual([
      'docs/admin.md: the link to gone.md resolves to nothing',
    ]);
    expect(missingPaths('docs/architecture.md', probe, exists)).toEqual(['docs/architecture.md: `core/nowhere.ts` does not exist']);
  });

  it('a decision neither indexed nor dated', () => {
    expect(
      decisionFindings('[0001](decisions/0001-a.md)', [
        { file: '0001-a.md', text: '# 1. A\n\nDate: 2026-11-23. Status: accepted.\n' },
        { file: '0002-b.md', text: '# 2. B\n\n## Context\n' },
      ]),
    ).toEqual([
      'docs/decisions/0002-b.md: not in the decisions index of docs/architecture.md',
      'docs/decisions/0002-b.md: no "Date: YYYY-MM-DD. Status: ..." line',
    ]);
  });

  it('a route module and an effect missing from their tables', () => {
    expect(tableFindings(architecture, ['probe-route.ts'], ['probeEffect'])).toEqual([
      'server/admin/routes/probe-route.ts: not in the "Admin checks" table',
      'effect probeEffect: not in the "Effects the server performs" table',
    ]);
  });
});
