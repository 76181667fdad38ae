import type pg from 'pg';
import { readSignedLink, signLink } from '../email/follow-up-signing.js';

/*
 * The abandoned-assessment reminder's link back into the flow (docs/decisions/0024-resume-links.md):
 * the flow's id and an expiry, signed, so the id alone never opens anything and a link stops
 * working a week after it was sent. Opening it moves the flow to the browser that opened it.
 */

/** How long a resume link works. */
export const RESUME_LINK_DAYS = 7;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A resume token for `flowId`, working for RESUME_LINK_DAYS from `now`. */
function resumeToken(db: Pick<pg.Pool, 'query'>, flowId: string, now: Date): Promise<string> {
  const expiresAt = Math.floor((now.getTime() + RESUME_LINK_DAYS * DAY_MS) / 1000);
  return signLink(db, 'resume_link', [flowId, expiresAt.toString(36)]);
}

/** The page that opens `flowId` again, signed; `now` is when the link is made (the start of its week). */
export async function resumeLink(db: Pick<pg.Pool, 'query'>, publicUrl: string, flowId: string, now = new Date()): Promise<string> {
  return `${publicUrl}/resume?token=${encodeURIComponent(await resumeToken(db, flowId, now))}`;
}

/** What a resume token says: the flow it opens, that it has expired (and when), or nothing. */
type ResumeCheck = { status: 'valid'; flowId: string } | { status: 'expired'; expiredAt: Date } | { status: 'invalid' };

/** Checks a resume token's signature, then its expiry: an expired link is told apart only once it is known to be genuine. */
export async function checkResumeToken(db: Pick<pg.Pool, 'query'>, token: string, now = new Date()): Promise<ResumeCheck> {
  const fields = await readSignedLink(db, 'resume_link', token, 2);
  const [flowId, expires] = fields ?? [];
  if (!flowId || !expires || !UUID.test(flowId) || !/^[0-9a-z]{1,12}$/.test(expires)) return { status: 'invalid' };
  const expiredAt = new Date(parseInt(expires, 36) * 1000);
  return expiredAt.getTime() <= now.getTime() ? { status: 'expired', expiredAt } : { status: 'valid', flowId };
}

/** True when the assessment flow a valid token names is still there (a lead's deletion removes it). */
export async function resumableFlowExists(db: Pick<pg.Pool, 'query'>, flowId: string): Promise<boolean> {
  const found = await db.query("SELECT 1 FROM flows WHERE id = $1 AND machine = 'assessmentFlow'", [flowId]);
  return found.rowCount === 1;
}
