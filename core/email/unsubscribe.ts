import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { queueMarketingSync } from '../integrations/marketing-sync.js';
import { readSignedLink, signLink } from './follow-up-signing.js';

/*
 * Unsubscribing from the follow-up reminders (the only emails an address can turn off). The link
 * names the lead, signed (follow-up-signing.ts), never the address, so it carries no personal data
 * and cannot be made for someone else's address; it does not expire, as a mail client may offer
 * its unsubscribe button long after the email came. What is recorded is the lead's address, so a
 * later lead with the same address is not reminded either.
 */

/** How an address was unsubscribed: the mail client's one-click button (RFC 8058), or the page. */
type UnsubscribeHow = 'one_click' | 'page';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The address as it is kept and compared: leads are one per address, case-insensitively. */
const normalised = (email: string) => email.trim().toLowerCase();

/** The signed unsubscribe token of a lead's reminders. */
export function unsubscribeToken(db: Pick<pg.Pool, 'query'>, leadId: string): Promise<string> {
  return signLink(db, 'unsubscribe_link', [leadId]);
}

/**
 * Records the token's lead's address as unsubscribed (once: a second time keeps the first record)
 * and queues its unsubscribe at the email-marketing provider; false when the token is not a valid one, or its lead has been deleted.
 */
export async function unsubscribe(pool: pg.Pool, token: string, how: UnsubscribeHow): Promise<boolean> {
  const fields = await readSignedLink(pool, 'unsubscribe_link', token, 1);
  const leadId = fields?.[0];
  if (!leadId || !UUID.test(leadId)) return false;
  return inTransaction(pool, async (client) => {
    const lead = await client.query<{ email: string }>('SELECT email FROM leads WHERE lead_id = $1', [leadId]);
    if (!lead.rows[0]) return false;
    const added = await client.query('INSERT INTO email_unsubscribes (email, how) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING', [
      normalised(lead.rows[0].email),
      how,
    ]);
    // the coach's email-marketing list unsubscribes the address too (decision 0048), with the record
    if (added.rowCount) await queueMarketingSync(client, leadId);
    return true;
  });
}

/** True when the address asked for no more reminders. */
export async function isUnsubscribed(db: Pick<pg.Pool, 'query'>, email: string): Promise<boolean> {
  const found = await db.query('SELECT 1 FROM email_unsubscribes WHERE email = $1', [normalised(email)]);
  return found.rowCount === 1;
}

/**
 * Where a reminder's unsubscribe goes: the page its body links to, and the headers a mail client
 * shows its own button for, which POSTs `List-Unsubscribe=One-Click` to the API (RFC 8058).
 */
export function unsubscribeLinks(publicUrl: string, token: string): { page: string; headers: Record<string, string> } {
  const query = `?token=${encodeURIComponent(token)}`;
  return {
    page: `${publicUrl}/unsubscribe${query}`,
    headers: {
      'List-Unsubscribe': `<${publicUrl}/api/email/unsubscribe${query}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
