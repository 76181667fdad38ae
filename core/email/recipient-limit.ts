import type pg from 'pg';
import type { EmailKind } from '#machines/protocol/operations.js';

/**
 * The per-recipient limit (decision 0045): at most `max` emails delivered to one typed address in
 * any `hours`, across every kind the product sends to a lead or a visitor. An owner's whole
 * journey (results, homework, receipt, a reminder, a contact reply) stays well inside it; a script
 * that types one victim's address into many flows reaches them this many times a day at most.
 */
export const RECIPIENT_LIMIT = { max: 6, hours: 24 } as const;

/** Kinds addressed to the coach or an admin, never to an address a visitor typed: not counted. */
const TO_THE_SITE: ReadonlySet<EmailKind> = new Set(['contact_notification', 'sign_in_notice']);

/** The reason an over-limit email is recorded with, shown on the lead's page. */
export const OVER_RECIPIENT_LIMIT = `Not sent: this address was already sent ${RECIPIENT_LIMIT.max} emails in the last ${RECIPIENT_LIMIT.hours} hours (the per-recipient limit).`;

/**
 * Decides, inside the delivering transaction, whether one more email of `kind` may go to `to`:
 * null when it may, else why not. Deliveries to one address (case-insensitive) take turns on a
 * transaction-scoped advisory lock held until the caller commits its row as sent, recorded or
 * skipped, so concurrent workers in any process count each other's deliveries exactly.
 */
export async function recipientLimitReason(client: pg.ClientBase, kind: EmailKind, to: string): Promise<string | null> {
  // mail to the coach or an admin is not an address someone typed
  if (TO_THE_SITE.has(kind)) return null;
  await client.query({
    name: 'lock-email-recipient',
    text: "SELECT pg_advisory_xact_lock(hashtextextended('email-recipient:' || lower($1), 0))",
    values: [to],
  });
  const delivered = await client.query<{ n: number }>({
    name: 'count-email-recipient',
    text: `SELECT count(*)::int AS n FROM email_outbox
           WHERE lower(to_address) = lower($1) AND status IN ('sent', 'recorded')
             AND created_at > now() - make_interval(hours => $2)
             AND kind <> ALL ($3::text[])`,
    values: [to, RECIPIENT_LIMIT.hours, [...TO_THE_SITE]],
  });
  return delivered.rows[0]!.n >= RECIPIENT_LIMIT.max ? OVER_RECIPIENT_LIMIT : null;
}
