import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies every pending migration; a no-op when the schema is current. Safe to call from several processes at once. */
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
  return applied.map((migration) => migration.name);
}
