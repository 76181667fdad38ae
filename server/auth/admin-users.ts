import type pg from 'pg';
import { inTransaction } from '#core/db/transaction.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';
import { endSessionsOf } from './sessions.js';

// The one writer of users (core/db/table-owners.ts): the first admin, added admins, passwords and
// sign-in stamps. Their sessions are written by sessions.ts.

/** Any fixed number works; it only has to be the same in every process that bootstraps. */
const BOOTSTRAP_LOCK = 7_301_442;

export type BootstrapResult = { created: false } | { created: true; email: string; generatedPassword?: string };

/**
 * Creates the first admin when none exists: from ADMIN_EMAIL / ADMIN_PASSWORD when set, otherwise
 * admin@localhost with a random password the caller prints once. Concurrent starts serialise on an
 * advisory lock, so exactly one admin is created.
 */
export async function ensureAdmin(pool: pg.Pool, options: { email?: string; password?: string }): Promise<BootstrapResult> {
  return inTransaction(pool, async (client): Promise<BootstrapResult> => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
    const existing = await client.query("SELECT 1 FROM users WHERE role = 'admin' LIMIT 1");
    if (existing.rowCount) return { created: false };
    const email = normaliseEmail(options.email ?? 'admin@localhost');
    const generatedPassword = options.password ? undefined : generatePassword();
    const passwordHash = await hashPassword(options.password ?? generatedPassword!);
    await client.query("INSERT INTO users (email, password_hash, role, must_change_password) VALUES ($1, $2, 'admin', $3)", [
      email,
      passwordHash,
      generatedPassword !== undefined,
    ]);
    return generatedPassword ? { created: true, email, generatedPassword } : { created: true, email };
  });
}

/** Adds an admin; throws AdminExistsError when the email is taken. */
export async function createAdmin(pool: pg.Pool, email: string, password: string): Promise<void> {
  const result = await pool.query(
    "INSERT INTO users (email, password_hash, role) VALUES ($1, $2, 'admin') ON CONFLICT (email) DO NOTHING",
    [normaliseEmail(email), await hashPassword(password)],
  );
  if (result.rowCount === 0) throw new AdminExistsError(email);
}

/** Sets a new password and signs the user out everywhere; false when no such user. */
export async function resetPassword(pool: pg.Pool, email: string, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return inTransaction(pool, async (client) => {
    const updated = await client.query<{ id: string }>(
      'UPDATE users SET password_hash = $2, must_change_password = false WHERE email = $1 RETURNING id',
      [normaliseEmail(email), passwordHash],
    );
    if (updated.rowCount) await endSessionsOf(client, updated.rows[0]!.id);
    return Boolean(updated.rowCount);
  });
}

/**
 * A signed-in user changes their own password: false when `currentPassword` is not theirs.
 * Clears must_change_password, and ends every other session of the user (their sockets close).
 */
export async function changeOwnPassword(
  pool: pg.Pool,
  change: { userId: string; sessionToken: string; currentPassword: string; newPassword: string },
): Promise<boolean> {
  const found = await pool.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [change.userId]);
  const stored = found.rows[0]?.password_hash;
  if (!stored || !(await verifyPassword(change.currentPassword, stored))) return false;
  const passwordHash = await hashPassword(change.newPassword);
  await inTransaction(pool, async (client) => {
    await client.query('UPDATE users SET password_hash = $2, must_change_password = false WHERE id = $1', [change.userId, passwordHash]);
    await endSessionsOf(client, change.userId, change.sessionToken);
  });
  return true;
}

/** Stamps a successful sign-in. */
export async function recordSignIn(pool: pg.Pool, userId: string): Promise<void> {
  await pool.query('UPDATE users SET last_sign_in_at = now() WHERE id = $1', [userId]);
}

export class AdminExistsError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists.`);
    this.name = 'AdminExistsError';
  }
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
