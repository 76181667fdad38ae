import type pg from 'pg';
import { readSignedLink, signLink } from '../email/follow-up-signing.js';

/*
 * The results and homework emails' link to the lead's PDF report (decision 0040): the diagnostic's
 * id and an expiry, signed like the resume link (core/email/follow-up-signing.ts, its own key
 * `report_link`), so the id alone opens nothing and a link stops working after REPORT_LINK_DAYS.
 * It opens the same report the visitor's results screen downloads (core/reports/store.ts).
 */

/** How long a report link works: long enough to come back to the email, as the email says. */
export const REPORT_LINK_DAYS = 30;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A signed link to a diagnostic's report and the moment it stops working. */
export interface ReportLink {
  url: string;
  expiresAt: Date;
}

/** The link to `diagnosticId`'s report, working for REPORT_LINK_DAYS from `now` (when the email is written). */
export async function reportLink(
  db: Pick<pg.Pool, 'query'>,
  publicUrl: string,
  diagnosticId: string,
  now = new Date(),
): Promise<ReportLink> {
  const expires = Math.floor((now.getTime() + REPORT_LINK_DAYS * DAY_MS) / 1000);
  const token = await signLink(db, 'report_link', [diagnosticId, expires.toString(36)]);
  return { url: `${publicUrl}/api/reports/link?token=${encodeURIComponent(token)}`, expiresAt: new Date(expires * 1000) };
}

/** What a report token says: the diagnostic it opens, that it has expired (and when), or nothing. */
type ReportLinkCheck = { status: 'valid'; diagnosticId: string } | { status: 'expired'; expiredAt: Date } | { status: 'invalid' };

/** Checks a report token's signature, then its expiry: an expired link is told apart only once it is known to be genuine. */
export async function checkReportToken(db: Pick<pg.Pool, 'query'>, token: string, now = new Date()): Promise<ReportLinkCheck> {
  const fields = await readSignedLink(db, 'report_link', token, 2);
  const [diagnosticId, expires] = fields ?? [];
  if (!diagnosticId || !expires || !UUID.test(diagnosticId) || !/^[0-9a-z]{1,12}$/.test(expires)) return { status: 'invalid' };
  const expiredAt = new Date(parseInt(expires, 36) * 1000);
  return expiredAt.getTime() <= now.getTime() ? { status: 'expired', expiredAt } : { status: 'valid', diagnosticId };
}
