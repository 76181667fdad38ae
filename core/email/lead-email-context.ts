import type pg from 'pg';
import type { SiteSettings } from '#machines/site-settings.js';
import type { Config } from '../config/index.js';
import { storedSiteSettings } from '../site/settings.js';
import { coachAddressGiven, FIRST_ADMIN_ADDRESS } from './coach.js';

/** What an email to a lead is written with. */
export interface LeadEmailContext {
  /** The lead's stored address and name; null when the lead was deleted. */
  lead: { email: string; name: string } | null;
  /** Where replies go (core/email/coach.ts). */
  replyTo: string;
  site: SiteSettings;
}

/**
 * The lead's address and name, the coach's address and the site's settings, read in one statement
 * (each email job of the graded path once: three statements were three round trips).
 */
export async function leadEmailContext(
  db: pg.ClientBase,
  leadId: string,
  config: Pick<Config, 'COACH_EMAIL' | 'EMAIL_FROM'>,
): Promise<LeadEmailContext> {
  const found = await db.query<{ email: string | null; name: string | null; first_admin: string | null; site: unknown }>({
    name: 'lead-email-context',
    text: `SELECT l.email, l.name, (${FIRST_ADMIN_ADDRESS}) AS first_admin, (SELECT settings FROM site_settings) AS site
           FROM (VALUES (1)) AS one LEFT JOIN leads l ON l.lead_id = $1`,
    values: [leadId],
  });
  const row = found.rows[0]!;
  return {
    // the columns are NOT NULL: a null address is the lead that is not there
    lead: row.email === null ? null : { email: row.email, name: row.name! },
    replyTo: coachAddressGiven(config, row.first_admin),
    site: storedSiteSettings(row.site),
  };
}
