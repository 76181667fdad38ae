import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { installLeadFacts } from '../leads/lead-facts.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Applies every pending migration, then installs the definitions kept in code (lead_facts) when
 * they changed; a no-op when the schema is current. Safe to call from several processes at once.
 */
export async function migrate(databaseUrl: string, log: (message: string) => void = () => {}): Promise<string[]> {
  const applied = await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    count: Infinity,
    checkOrder: true,
    singleTransaction: true,
    // a second process starting at the same time waits for the first instead of failing
    advisoryLockMode: 'wait',
    log: () => {},
    logger: { debug: () => {}, info: () => {}, warn: log, error: log },
  });
  for (const migration of applied) log(`applied migration ${migration.name}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (await installLeadFacts(client)) log('installed lead_facts');
  } finally {
    await client.end();
  }
  return applied.map((migration) => migration.name);
}
