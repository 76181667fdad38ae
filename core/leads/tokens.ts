import type pg from 'pg';
import type { TokenCheck } from '#machines/protocol/assessment-flow.js';

/**
 * The check-token rule: not found -> invalid; past expiry -> invalid and expired;
 * otherwise valid, and a non-reusable unused token is stamped used. The stamp is one conditional
 * UPDATE, so of two requests racing for a single-use token exactly one gets it.
 */
export async function checkToken(pool: pg.Pool, token: string): Promise<TokenCheck> {
  const claimed = await pool.query<{ lead_id: string | null; email: string | null; name: string | null; source: string }>(
    `UPDATE lead_tokens SET used_at = CASE WHEN reusable THEN used_at ELSE now() END
     WHERE token = $1 AND expires_at > now() AND (reusable OR used_at IS NULL)
     RETURNING lead_id, email, name, source`,
    [token],
  );
  const row = claimed.rows[0];
  if (row) {
    return {
      status: 'valid',
      token,
      source: row.source === 'community' ? 'community' : 'token',
      leadId: row.lead_id,
      email: row.email,
      name: row.name,
    };
  }
  const known = await pool.query<{ expired: boolean }>('SELECT expires_at <= now() AS expired FROM lead_tokens WHERE token = $1', [token]);
  // a used single-use token is treated like an unknown one: the link has been spent
  return { status: 'invalid', token, expired: known.rows[0]?.expired ?? false };
}

/**
 * A lead's erase also removes the unclaimed tokens made out to its address: they name the lead
 * only by email, so no foreign key cascades to them. In the erase's transaction.
 */
export async function deleteUnclaimedTokensFor(client: pg.ClientBase, email: string): Promise<void> {
  await client.query('DELETE FROM lead_tokens WHERE lead_id IS NULL AND lower(email) = lower($1)', [email]);
}
