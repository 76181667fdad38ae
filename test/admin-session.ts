import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { createAdmin } from '#server/auth/admin-users.js';
import { createSession, csrfTokenFor } from '#server/auth/sessions.js';

/**
 * A new admin with a live session, for tests that call admin routes: the session cookie's value,
 * its CSRF token and the two headers every admin request carries.
 */
export async function signedInAdmin(pool: pg.Pool, email = `admin-${randomBytes(5).toString('hex')}@example.com`) {
  await createAdmin(pool, email, 'correct horse battery');
  const user = (await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]!;
  const cookie = (await createSession(pool, user.id)).token;
  const csrf = csrfTokenFor(cookie);
  return { email, cookie, csrf, headers: { cookie: `hf_session=${cookie}`, 'x-csrf-token': csrf } };
}
