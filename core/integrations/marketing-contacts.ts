import type pg from 'pg';
import type { Integration } from '#machines/protocol/admin/integrations.js';

/*
 * Where each confirmed lead stands at the email-marketing provider (decision 0048): the one writer
 * of marketing_contacts. A sync that went through records what was sent and clears the error; one
 * that failed keeps what was last sent and records why, which the card shows as its last sync.
 */

export type SyncedAs = 'subscribed' | 'unsubscribed';

/** The lead's contact at the provider is now `as`. */
export async function recordContactSynced(db: Pick<pg.Pool, 'query'>, leadId: string, as: SyncedAs): Promise<void> {
  await db.query(
    `INSERT INTO marketing_contacts (lead_id, synced_as, synced_at, error) VALUES ($1, $2, now(), NULL)
     ON CONFLICT (lead_id) DO UPDATE SET synced_as = $2, synced_at = now(), error = NULL, updated_at = now()`,
    [leadId, as],
  );
}

/** The lead's latest sync failed: why, in words for the coach (never the key). */
export async function recordContactSyncFailed(db: Pick<pg.Pool, 'query'>, leadId: string, error: string): Promise<void> {
  await db.query(
    `INSERT INTO marketing_contacts (lead_id, error) VALUES ($1, left($2, 500))
     ON CONFLICT (lead_id) DO UPDATE SET error = left($2, 500), updated_at = now()`,
    [leadId, error],
  );
}

/** The newest sync of any lead, as the card shows it; null before the first. */
export async function latestMarketingSync(db: Pick<pg.Pool, 'query'>): Promise<Integration['lastSync']> {
  const found = await db.query<{ updated_at: Date; error: string | null; synced_as: SyncedAs | null }>(
    'SELECT updated_at, error, synced_as FROM marketing_contacts ORDER BY updated_at DESC LIMIT 1',
  );
  const row = found.rows[0];
  if (!row) return null;
  return { at: row.updated_at, failed: row.error !== null, message: row.error };
}
