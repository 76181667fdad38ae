import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from '#core/db/table-owners.js';
import { markdownTable } from './markdown-table.js';
import { sqlWrites } from './sql-writes.js';
import { checkRepository, ownerFindings, schemaTables } from './table-owners.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCHEMA = new Set(TABLE_OWNERS.flatMap((owner) => owner.tables));

/** The owner rule's findings for one file of source, against the real map and schema. */
function findingsFor(file: string, source: string): string[] {
  const files = [{ path: file, text: source }];
  // the real owners' own writes are not in this tree of one file: only findings about `file` count
  return ownerFindings(files, SCHEMA).filter((finding) => finding.startsWith(`${file}:`));
}

describe('the owner rule', () => {
  it('holds for this repository', () => {
    expect(checkRepository()).toEqual([]);
  });

  it('fails a write to leads placed in another module, naming its owner (the probe)', () => {
    const probe = `export async function forget(db: pg.Pool, id: string) {
  await db.query('DELETE FROM leads WHERE lead_id = $1', [id]);
}`;
    expect(findingsFor('server/routes/example.ts', probe)).toEqual([
      'server/routes/example.ts:2: DELETE FROM leads: only core/leads/lead-service.ts writes leads; call a function of it instead (core/db/table-owners.ts)',
    ]);
    expect(findingsFor('core/leads/lead-service.ts', probe)).toEqual([]);
  });

  it.each([
    ['an INSERT spread over the lines of a template string', 'db.query(`\n  INSERT\n    INTO leads (email)\n  VALUES ($1)`)', 'leads'],
    ['an UPDATE in lower case, with an alias', "db.query('update flows f set state = $2 where f.id = $1')", 'flows'],
    ['a schema-qualified, quoted name', `db.query('DELETE FROM public."jobs" WHERE id = $1')`, 'jobs'],
    ['a MERGE', "db.query('MERGE INTO payment_tracking p USING x ON true WHEN MATCHED THEN DELETE')", 'payment_tracking'],
    ['a TRUNCATE of two tables', "db.query('TRUNCATE TABLE email_outbox, jobs')", 'email_outbox,jobs'],
    ['a COPY into a table', "db.query('COPY leads (email) FROM STDIN')", 'leads'],
    [
      'a CTE writing two tables',
      'db.query(`WITH moved AS (UPDATE flows SET state = $2 RETURNING id) INSERT INTO flow_events (flow_id) SELECT id FROM moved`)',
      'flows,flow_events',
    ],
    ['a table named by interpolation', 'db.query(`DELETE FROM ${table} WHERE id = $1`)', '${table}'],
    [
      'a write after a comment marker in a string and a regex',
      "const url = 'https://x//y'; const re = /\\/\\//; db.query('DELETE FROM jobs')",
      'jobs',
    ],
  ])('reads %s as a write', (_shape, source, tables) => {
    expect(sqlWrites(source).map((write) => write.table)).toEqual(tables.split(','));
    expect(findingsFor('server/routes/example.ts', source)).toHaveLength(tables.split(',').length);
  });

  it.each([
    ['a row lock', "db.query('SELECT id FROM leads WHERE lead_id = $1 FOR UPDATE')", []],
    ['a key-share lock', "db.query('SELECT id FROM jobs WHERE id = $1 FOR NO KEY UPDATE SKIP LOCKED')", []],
    [
      "an upsert's update of its own row",
      "db.query('INSERT INTO site_visits (day) VALUES ($1) ON CONFLICT (day) DO UPDATE SET day = $1')",
      ['site_visits'],
    ],
    ["a foreign key's action", "db.query('ALTER TABLE x ADD FOREIGN KEY (y) REFERENCES leads ON UPDATE CASCADE ON DELETE CASCADE')", []],
    ['a comment about a write', '// this used to INSERT INTO leads directly\n/* and DELETE FROM jobs */\nconst a = 1;', []],
    ['a COPY out of a table', "db.query('COPY leads TO STDOUT')", []],
    ['prose and method calls', "hash.update(token); const note = 'truncated to 80 characters'; log('update the settings first');", []],
  ])('does not read %s as a write of another table', (_shape, source, tables) => {
    expect(sqlWrites(source).map((write) => write.table)).toEqual(tables);
  });

  it('fails a table of the schema without an owner, and an owner that does not write its table', () => {
    const schema = schemaTables([
      {
        path: '1_a.sql',
        text: '-- Up Migration\nCREATE TABLE leads (id int);\nCREATE TABLE IF NOT EXISTS "new_table" (id int);\n-- Down Migration\nDROP TABLE new_table;',
      },
    ]);
    expect([...schema]).toEqual(['leads', 'new_table']);
    const map = { owners: [{ owner: 'core/leads/lead-service.ts', tables: ['leads'], why: '' }], exceptions: [] };
    expect(ownerFindings([], schema, map)).toEqual([
      'core/db/table-owners.ts: the table new_table has no owner; add the module that writes it',
      'core/db/table-owners.ts: core/leads/lead-service.ts, the owner of leads, does not write it',
    ]);
  });

  it('reads the schema the migrations leave: tables dropped or renamed later are gone', () => {
    const schema = schemaTables([
      { path: '1_a.sql', text: '-- Up Migration\nCREATE TABLE a (id int);\nCREATE TABLE b (id int);\n' },
      {
        path: '2_b.sql',
        text: '-- Up Migration\nDROP TABLE IF EXISTS a CASCADE;\nALTER TABLE b RENAME TO c;\n-- Down Migration\nCREATE TABLE a (id int);',
      },
    ]);
    expect([...schema]).toEqual(['c']);
  });
});

/** The owner module of each row of docs/architecture.md's "Who writes what", with its tables and callers. */
function whoWritesWhat() {
  const markdown = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  return markdownTable(markdown, 'Who writes what').map(([tables, owner, why, callers]) => ({
    tables: [...tables!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!),
    owner: /`([^`]+)`/.exec(owner!)?.[1],
    why: why!,
    callers: [...callers!.matchAll(/`([^`]+\.ts)`/g)].map((match) => match[1]!),
  }));
}

/** The repository paths a module imports (aliases and relative paths, `.js` read as `.ts`). */
function importsOf(file: string): Set<string> {
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  const aliases: Record<string, string> = { '#core/': 'core/', '#server/': 'server/', '#workers/': 'workers/', '#scripts/': 'scripts/' };
  return new Set(
    [...source.matchAll(/^import (?!type )[^;]*? from '([^']+)';/gms)].map(([, specifier]) => {
      const alias = Object.keys(aliases).find((prefix) => specifier!.startsWith(prefix));
      const resolved = alias ? aliases[alias] + specifier!.slice(alias.length) : path.posix.join(path.posix.dirname(file), specifier!);
      return resolved.replace(/\.js$/, '.ts');
    }),
  );
}

describe('docs/architecture.md, "Who writes what"', () => {
  const rows = whoWritesWhat();

  it('shows the owner map: each owner, its tables and why', () => {
    expect(rows.map(({ tables, owner, why }) => ({ owner, tables, why }))).toEqual(
      TABLE_OWNERS.map(({ owner, tables, why }) => ({ owner, tables, why })),
    );
  });

  it.each(rows.map((row) => [row.owner, row.callers] as const))('names callers of %s that exist and import it', (owner, callers) => {
    expect(callers.length).toBeGreaterThan(0);
    for (const caller of callers) {
      expect(existsSync(path.join(ROOT, caller)), `${caller} does not exist`).toBe(true);
      if (caller !== owner) expect([...importsOf(caller)], `${caller} does not import ${owner}`).toContain(owner);
    }
  });
});
