import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';

// The one writer of sessions (core/db/table-owners.ts): sign-in, use, sign-out and password changes.

/** The session cookie's name. */
export const SESSION_COOKIE = 'hf_session';
/** How long a session lives without use. */
const SESSION_TTL_DAYS = 7;
/** How long a session lives at most, however often it is used: then its admin signs in again. */
const SESSION_MAX_DAYS = 30;
/** The header a state-changing admin request carries its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** A signed-in admin, as a request sees them. */
export interface SessionUser {
  id: string;
  email: string;
  role: 'admin';
  /** Signed in with a generated first password, not yet changed. */
  mustChangePassword: boolean;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** What the sessions table keys a session by (and session_ended announces): the token's SHA-256. */
export function sessionTokenHash(token: string): string {
  return sha256(token);
}

/**
 * The CSRF token of a session: derived from the session token, which only the httpOnly cookie
 * holds, so a page on another origin can neither read nor compute it. Handed to the browser by
 * sign-in and get-session, sent back in the x-csrf-token header.
 */
export function csrfTokenFor(sessionToken: string): string {
  return sha256(`csrf:${sessionToken}`);
}

/** True when `candidate` is the CSRF token of `sessionToken` (constant-time). */
export function isCsrfTokenValid(sessionToken: string, candidate: string | undefined): boolean {
  if (!candidate) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const given = Buffer.from(candidate);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Opens a session for a user; returns the cookie's token (only its hash is stored). */
export async function createSession(
  db: pg.Pool | pg.ClientBase,
  userId: string,
  meta: { ip?: string | null; userAgent?: string | null } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  // each sign-in prunes the user's dead sessions, so the table does not grow without bound
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND expires_at <= now()', [userId]);
  const saved = await db.query<{ expires_at: Date }>(
    `INSERT INTO sessions (token_hash, user_id, ip, user_agent, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(days => $5)) RETURNING expires_at`,
    [sha256(token), userId, meta.ip ?? null, meta.userAgent?.slice(0, 512) ?? null, SESSION_TTL_DAYS],
  );
  return { token, expiresAt: saved.rows[0]!.expires_at };
}

/**
 * The user of a live session and when it now expires, sliding the expiry forward by the idle
 * lifetime but never past the absolute one; null for an unknown or expired token.
 */
export async function readSession(db: pg.Pool, token: string | undefined): Promise<(SessionUser & { expiresAt: Date }) | null> {
  if (!token || token.length > 200) return null;
  const found = await db.query<SessionUser & { expiresAt: Date }>(
    `UPDATE sessions s SET last_seen_at = now(),
       expires_at = LEAST(now() + make_interval(days => $2), s.created_at + make_interval(days => $3))
     FROM users u
     WHERE s.token_hash = $1 AND s.expires_at > now() AND s.created_at > now() - make_interval(days => $3) AND u.id = s.user_id
     RETURNING u.id, u.email, u.role, u.must_change_password AS "mustChangePassword", s.expires_at AS "expiresAt"`,
    [sha256(token), SESSION_TTL_DAYS, SESSION_MAX_DAYS],
  );
  return found.rows[0] ?? null;
}

/**
 * Ends every session of a user (a password reset), or every one but `keepToken`'s (the user changed
 * their own password in that session), in the password change's transaction.
 */
export async function endSessionsOf(client: pg.ClientBase, userId: string, keepToken?: string): Promise<void> {
  if (keepToken === undefined) await client.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
  else await client.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2', [userId, sha256(keepToken)]);
}

/** Ends a session; unknown tokens are ignored. */
export async function deleteSession(db: pg.Pool, token: string | undefined): Promise<void> {
  if (token) await db.query('DELETE FROM sessions WHERE token_hash = $1', [sha256(token)]);
}
