import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { insertJob } from '../queues/outbox.js';
import { MarketingApiError, unsubscribeContact, upsertContact } from './brevo.js';
import { recordContactSynced, recordContactSyncFailed, type SyncedAs } from './marketing-contacts.js';
import { marketingTarget } from './settings.js';

/*
 * Confirmed leads on the coach's email-marketing list (decision 0048). A lead is confirmed once its
 * address is proven (leads.email_proven_at: a link mailed to it was followed). Each fact change the
 * list cares about (the address proven, a tier or archetype graded or re-graded, an unsubscribe)
 * queues one sync job for the lead in the transaction that changes it; the job carries only the
 * lead id and reads where the lead stands when it runs, so a retry, a late job or two jobs for one
 * change all send the same upsert by email, and the provider ends with one contact.
 */

/** The job's name; it runs on the webhooks queue (5 attempts, exponential backoff). */
export const MARKETING_SYNC_JOB = 'email_marketing:sync';

/**
 * Queues a sync of each lead while the email-marketing card is on: in the caller's transaction (a
 * client), so the job commits with the fact that changed, or alone (the pool) after a one-statement write.
 */
export async function queueMarketingSync(db: pg.ClientBase | pg.Pool, ...leadIds: string[]): Promise<void> {
  if (leadIds.length === 0 || !(await marketingTarget(db))) return;
  await insertMarketingSyncJobs(db, leadIds);
}

/** The sync jobs themselves, for a caller that has read the card on already (activeTargets). */
export async function insertMarketingSyncJobs(db: pg.ClientBase | pg.Pool, leadIds: string[]): Promise<void> {
  for (const leadId of leadIds) {
    await insertJob(db, { queue: 'webhooks', name: MARKETING_SYNC_JOB, payload: { target: 'email_marketing', leadId }, leadId });
  }
}

interface LeadStanding {
  email: string;
  tier: string | null;
  archetype: string | null;
  source: string;
  test: boolean;
  proven: boolean;
  unsubscribed: boolean;
}

/** Where the lead stands now: its facts (lead_facts, decision 0036), whether its address is proven, whether it unsubscribed. */
async function standing(client: pg.ClientBase, leadId: string): Promise<LeadStanding | null> {
  const found = await client.query<LeadStanding>(
    `SELECT f.email, f.tier, f.archetype, f.source, f.test, l.email_proven_at IS NOT NULL AS proven,
            EXISTS (SELECT 1 FROM email_unsubscribes u WHERE u.email = lower(l.email)) AS unsubscribed
     FROM lead_facts(true, NULL, NULL, ARRAY[$1::uuid]) f JOIN leads l ON l.lead_id = f.lead_id`,
    [leadId],
  );
  return found.rows[0] ?? null;
}

export type SyncOutcome = { synced: SyncedAs; contact: string } | { skipped: string };

/**
 * Brings the lead's contact at Brevo in line with where the lead stands: unsubscribed there when
 * the lead unsubscribed, added or updated on the list with TIER, ARCHETYPE and SOURCE when its
 * address is proven, else nothing. One lead at a time (a transaction-scoped advisory lock on the
 * lead), so two jobs for one lead never cross and the last to run sends the newest facts. A failure
 * is recorded for the card and thrown: retried when `retryable` (429, 5xx, network), not otherwise.
 */
export async function syncMarketingContact(pool: pg.Pool, baseUrl: string, leadId: string): Promise<SyncOutcome> {
  return inTransaction(pool, async (client) => {
    const target = await marketingTarget(client);
    if (!target) return { skipped: 'the email-marketing integration is off or has no list' };
    await client.query("SELECT pg_advisory_xact_lock(hashtext('marketing-contact:' || $1))", [leadId]);
    const lead = await standing(client, leadId);
    if (!lead) return { skipped: 'the lead is gone' };
    if (lead.test) return { skipped: 'a test lead is never sent to the list' };
    if (!lead.unsubscribed && !lead.proven) return { skipped: 'the address is not proven yet' };
    const api = { baseUrl, apiKey: target.apiKey };
    try {
      if (lead.unsubscribed) {
        const contact = await unsubscribeContact(api, lead.email, target.listId);
        await recordContactSynced(client, leadId, 'unsubscribed');
        return { synced: 'unsubscribed', contact };
      }
      const attributes = { TIER: lead.tier ?? '', ARCHETYPE: lead.archetype ?? '', SOURCE: lead.source };
      const contact = await upsertContact(api, lead.email, attributes, target.listId);
      await recordContactSynced(client, leadId, 'subscribed');
      return { synced: 'subscribed', contact };
    } catch (error) {
      // recorded outside this transaction, which the throw rolls back
      if (error instanceof MarketingApiError) await recordContactSyncFailed(pool, leadId, error.message);
      throw error;
    }
  });
}
