import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * The one writer of app_secrets (core/db/table-owners.ts): a random key by name, made on first use
 * and kept, so every server process and worker signs and checks with the same one. Two processes
 * asking at once both get the key that was stored first. Deleting its row makes a new key, which
 * voids whatever the old one signed.
 */
export async function appSecret(db: Pick<pg.Pool, 'query'>, name: string): Promise<string> {
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const found = await db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]);
  return found.rows[0]!.value;
}
