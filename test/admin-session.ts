import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { createAdmin } from '#server/auth/admin-users.js';
import { createSession, csrfTokenFor } from '#server/auth/sessions.js';

/**
 * A new admin with a live session, for tests that call admin routes: the user's id, the session
 * cookie's value, its CSRF token and the two headers every admin request carries. `role` replaces
 * the user's role, and `mustChangePassword` marks a generated password, before the session is made.
 */
export async function signedInAdmin(pool: pg.Pool, options: { email?: string; role?: string; mustChangePassword?: boolean } = {}) {
  const email = options.email ?? `admin-${randomBytes(5).toString('hex')}@example.com`;
  await createAdmin(pool, email, 'correct horse battery');
  const id = (await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]!.id;
  if (options.role) await pool.query('UPDATE users SET role = $2 WHERE id = $1', [id, options.role]);
  if (options.mustChangePassword) await pool.query('UPDATE users SET must_change_password = true WHERE id = $1', [id]);
  const cookie = (await createSession(pool, id)).token;
  const csrf = csrfTokenFor(cookie);
  return { id, email, cookie, csrf, headers: { cookie: `hf_session=${cookie}`, 'x-csrf-token': csrf } };
}

export type SignedInAdmin = Awaited<ReturnType<typeof signedInAdmin>>;
