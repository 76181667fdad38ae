import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { hashPassword, verifyPassword } from './password.js';
import type { SessionUser } from './sessions.js';

let dummyHash: Promise<string> | undefined;

/**
 * A hash of a random password, so an unknown email costs the same scrypt work as a known one.
 * Call it once at start-up, so the first unknown email does not also pay for making it.
 */
export function hashForUnknownEmail(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummyHash;
}

/**
 * The user an email and password belong to, or null. Unknown addresses still run one scrypt
 * verification, so response time does not reveal which addresses have accounts.
 */
export async function verifyCredentials(pool: pg.Pool, email: string, password: string): Promise<SessionUser | null> {
  const found = await pool.query<SessionUser & { password_hash: string }>(
    'SELECT id, email, role, must_change_password AS "mustChangePassword", password_hash FROM users WHERE email = $1',
    [email],
  );
  const row = found.rows[0];
  const matches = await verifyPassword(password, row?.password_hash ?? (await hashForUnknownEmail()));
  return row && matches ? { id: row.id, email: row.email, role: row.role, mustChangePassword: row.mustChangePassword } : null;
}
