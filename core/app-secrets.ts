import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * The one writer of app_secrets (core/db/table-owners.ts): a random key by name, made on first use
 * and kept, so every server process and worker signs and checks with the same one. Two processes
 * asking at once both get the key that was stored first. Deleting its row makes a new key, which
 * voids whatever the old one signed.
 */
export async function appSecret(db: Pick<pg.Pool, 'query'>, name: string): Promise<string> {
  // read first: the key exists at every use but the first, and each email signs with one (one statement, not two)
  const stored = await readSecret(db, name);
  if (stored) return stored;
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  return (await readSecret(db, name))!;
}

async function readSecret(db: Pick<pg.Pool, 'query'>, name: string): Promise<string | undefined> {
  const found = await db.query<{ value: string }>({
    name: 'read-app-secret',
    text: 'SELECT value FROM app_secrets WHERE name = $1',
    values: [name],
  });
  return found.rows[0]?.value;
}
