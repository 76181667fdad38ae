// The owner rule (decision 0037), run by `npm run lint` and `npm test` (scripts/static-checks.mjs):
// SQL that writes a table appears only in the table's owner (core/db/table-owners.ts), every table
// of the schema has an owner, and the map names no table, owner or exception that is gone. Tests,
// their harness (test/) and the migrations are left out. A plain scan of the files: about a second.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLE_OWNERS, WRITE_EXCEPTIONS, type TableOwner } from '#core/db/table-owners.js';
import { sqlWrites, tableName, withoutComments } from './sql-writes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MIGRATIONS = 'core/db/migrations';
/** The parts that reach the database; machines/ and web/ cannot (decision 0016). */
const SCANNED = ['core', 'server', 'workers', 'scripts'];
const SOURCE = /\.(ts|mts|mjs|js)$/;
const TEST = /\.(test|int\.test|e2e\.test)\.ts$|\.fixtures\.ts$/;

export interface SourceFile {
  path: string;
  text: string;
}

interface OwnerMap {
  owners: readonly TableOwner[];
  exceptions: typeof WRITE_EXCEPTIONS;
}

const MAP: OwnerMap = { owners: TABLE_OWNERS, exceptions: WRITE_EXCEPTIONS };

/** The tables the migrations leave: each one's Up part creates and drops tables, in order. */
export function schemaTables(migrations: SourceFile[]): Set<string> {
  const tables = new Set<string>();
  const name = String.raw`(?:[a-z_][a-z0-9_]*\.)?"?([a-z_][a-z0-9_]*)"?`;
  const statement = new RegExp(
    String.raw`\b(create)\s+table\s+(?:if\s+not\s+exists\s+)?${name}|\b(drop)\s+table\s+(?:if\s+exists\s+)?([^;]+)|\balter\s+table\s+(?:if\s+exists\s+)?${name}\s+rename\s+to\s+${name}`,
    'giu',
  );
  for (const migration of [...migrations].sort((a, b) => a.path.localeCompare(b.path))) {
    const up = withoutComments(migration.text.split(/^-- Down Migration/mu)[0]!, true);
    for (const match of up.matchAll(statement)) {
      if (match[1]) tables.add(tableName(match[2]!));
      else if (match[3]) for (const dropped of match[4]!.split(',')) tables.delete(tableName(dropped.trim().split(/\s+/u)[0]!));
      else {
        tables.delete(tableName(match[5]!));
        tables.add(tableName(match[6]!));
      }
    }
  }
  return tables;
}

/** Every finding of the owner rule over `files` (paths from the root), against the schema's tables. */
export function ownerFindings(files: SourceFile[], schema: Set<string>, map: OwnerMap = MAP): string[] {
  const findings: string[] = [];
  const ownerOf = new Map<string, string>();
  for (const { owner, tables } of map.owners) {
    for (const table of tables) {
      if (ownerOf.has(table)) findings.push(`core/db/table-owners.ts: ${table} has two owners, ${ownerOf.get(table)} and ${owner}`);
      ownerOf.set(table, owner);
      if (!schema.has(table)) findings.push(`core/db/table-owners.ts: ${table} is not a table of the schema (${MIGRATIONS})`);
    }
  }
  for (const table of schema) {
    if (!ownerOf.has(table)) findings.push(`core/db/table-owners.ts: the table ${table} has no owner; add the module that writes it`);
  }
  const written = new Set<string>();
  for (const file of files) {
    for (const write of sqlWrites(file.text)) {
      written.add(`${file.path} ${write.table}`);
      const owner = ownerOf.get(write.table);
      if (owner === file.path) continue;
      if (map.exceptions.some((exception) => exception.file === file.path && exception.tables.includes(write.table))) continue;
      const where = `${file.path}:${write.line}: ${write.statement} ${write.table}`;
      findings.push(
        owner
          ? `${where}: only ${owner} writes ${write.table}; call a function of it instead (core/db/table-owners.ts)`
          : `${where}: ${write.table} has no owner in core/db/table-owners.ts`,
      );
    }
  }
  for (const { owner, tables } of map.owners) {
    for (const table of tables) {
      if (!written.has(`${owner} ${table}`)) findings.push(`core/db/table-owners.ts: ${owner}, the owner of ${table}, does not write it`);
    }
  }
  for (const { file, tables } of map.exceptions) {
    for (const table of tables) {
      if (!written.has(`${file} ${table}`))
        findings.push(`core/db/table-owners.ts: the exception for ${file} names ${table}, which it does not write`);
    }
  }
  return findings;
}

function walk(dir: string): string[] {
  if (!existsSync(path.join(ROOT, dir))) return [];
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || file === MIGRATIONS ? [] : walk(file);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [file] : [];
  });
}

function read(file: string): SourceFile {
  return { path: file, text: readFileSync(path.join(ROOT, file), 'utf8') };
}

/** The rule over this repository: the findings, none when it holds. */
export function checkRepository(): string[] {
  const migrations = readdirSync(path.join(ROOT, MIGRATIONS))
    .filter((name) => name.endsWith('.sql'))
    .map((name) => read(`${MIGRATIONS}/${name}`));
  return ownerFindings(SCANNED.flatMap(walk).map(read), schemaTables(migrations));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const findings = checkRepository();
  for (const finding of findings) process.stdout.write(`${finding}\n`);
  process.exit(findings.length ? 1 : 0);
}
