import { describe, expect, it } from 'vitest';
import { scratchDatabase } from '#test/helpers.js';
import { createPool } from '#core/db/pool.js';
import { AdminExistsError, createAdmin, ensureAdmin, resetPassword } from './admin-users.js';
import { verifyPassword } from './password.js';

describe('admin accounts', () => {
  it('bootstraps exactly one admin even when several processes start at once', async () => {
    const pool = createPool(await scratchDatabase(), 6);
    try {
      const results = await Promise.all([ensureAdmin(pool, {}), ensureAdmin(pool, {}), ensureAdmin(pool, {})]);
      expect(results.filter((result) => result.created)).toHaveLength(1);
      const created = results.find((result) => result.created);
      expect(created).toMatchObject({ created: true, email: 'admin@localhost' });
      const users = await pool.query('SELECT email, password_hash, must_change_password FROM users');
      expect(users.rowCount).toBe(1);
      expect(users.rows[0].must_change_password).toBe(true);
      const generated = created && 'generatedPassword' in created ? created.generatedPassword! : '';
      expect(await verifyPassword(generated, users.rows[0].password_hash)).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when given and prints no password', async () => {
    const pool = createPool(await scratchDatabase(), 2);
    try {
      const result = await ensureAdmin(pool, { email: 'Coach@Example.com', password: 'a long chosen password' });
      expect(result).toEqual({ created: true, email: 'coach@example.com' });
      expect(await ensureAdmin(pool, { email: 'other@example.com', password: 'another long password' })).toEqual({ created: false });
    } finally {
      await pool.end();
    }
  });

  it('adds admins, refuses a duplicate email in any case, and resets passwords signing the admin out', async () => {
    const pool = createPool(await scratchDatabase(), 2);
    try {
      await createAdmin(pool, 'ops@example.com', 'first password here');
      await expect(createAdmin(pool, 'OPS@example.com', 'second password here')).rejects.toBeInstanceOf(AdminExistsError);
      const user = await pool.query("SELECT id FROM users WHERE email = 'ops@example.com'");
      await pool.query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (repeat('a', 64), $1, now() + interval '1 day')", [
        user.rows[0].id,
      ]);

      expect(await resetPassword(pool, 'Ops@Example.com', 'a brand new password')).toBe(true);
      const after = await pool.query("SELECT password_hash FROM users WHERE email = 'ops@example.com'");
      expect(await verifyPassword('a brand new password', after.rows[0].password_hash)).toBe(true);
      expect((await pool.query('SELECT 1 FROM sessions')).rowCount).toBe(0);
      expect(await resetPassword(pool, 'nobody@example.com', 'whatever password')).toBe(false);
    } finally {
      await pool.end();
    }
  });
});
