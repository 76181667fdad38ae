import type pg from 'pg';
import type { Config } from '../config/index.js';

/**
 * Where the coach reads contact notifications and visitors' replies: COACH_EMAIL, else the first
 * admin's address (the coach signs in as the first admin on a fresh install), else EMAIL_FROM.
 */
export async function coachAddress(db: pg.Pool | pg.ClientBase, config: Pick<Config, 'COACH_EMAIL' | 'EMAIL_FROM'>): Promise<string> {
  if (config.COACH_EMAIL) return config.COACH_EMAIL;
  const admin = await db.query<{ email: string }>({
    name: 'first-admin-address',
    text: "SELECT email FROM users WHERE role = 'admin' ORDER BY created_at, id LIMIT 1",
  });
  return admin.rows[0]?.email ?? config.EMAIL_FROM;
}
