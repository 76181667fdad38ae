import type pg from 'pg';
import type { Config } from '../config/index.js';

/**
 * Where the coach reads contact notifications and visitors' replies: COACH_EMAIL, else the first
 * admin's address (the coach signs in as the first admin on a fresh install), else EMAIL_FROM.
 */
export async function coachAddress(db: pg.Pool | pg.ClientBase, config: Pick<Config, 'COACH_EMAIL' | 'EMAIL_FROM'>): Promise<string> {
  if (config.COACH_EMAIL) return config.COACH_EMAIL;
  const admin = await db.query<{ email: string }>({ name: 'first-admin-address', text: `SELECT (${FIRST_ADMIN_ADDRESS}) AS email` });
  return coachAddressGiven(config, admin.rows[0]?.email ?? null);
}

/** The first admin's address as a scalar subquery, for a statement that reads it beside other things. */
export const FIRST_ADMIN_ADDRESS = "SELECT email FROM users WHERE role = 'admin' ORDER BY created_at, id LIMIT 1";

/** The coach's address given the first admin's (null when there is none), by the rule above. */
export function coachAddressGiven(config: Pick<Config, 'COACH_EMAIL' | 'EMAIL_FROM'>, firstAdmin: string | null): string {
  if (config.COACH_EMAIL) return config.COACH_EMAIL;
  return firstAdmin ?? config.EMAIL_FROM;
}
