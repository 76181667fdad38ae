import { createHmac, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { appSecret } from '../app-secrets.js';

/*
 * The emails' personal links (the follow-ups' resume and unsubscribe links, the results and
 * homework emails' report link) carry their own credential: the fields they name, signed with
 * HMAC-SHA256 under a key made on first use and kept in app_secrets (like the visitor cookie's),
 * so the worker that writes a link and every server process that reads it agree. Each kind of
 * link has a key of its own, so one kind's signature never passes as another's; deleting a key's
 * row voids every link of that kind at once.
 */

/** The app_secrets row of each kind of signed link. */
type LinkKind = 'resume_link' | 'unsubscribe_link' | 'report_link' | 'confirm_link';

/** Longer than any link this module signs: anything longer is refused before any work. */
const MAX_TOKEN_LENGTH = 200;
const FIELD = /^[0-9a-z-]{1,64}$/;

function signature(key: string, kind: LinkKind, fields: readonly string[]): string {
  return createHmac('sha256', key)
    .update(`${kind}\n${fields.join('\n')}`)
    .digest('base64url');
}

/** `fields` (lower-case ids and numbers) and their signature, as one URL-safe token. */
export async function signLink(db: Pick<pg.Pool, 'query'>, kind: LinkKind, fields: readonly string[]): Promise<string> {
  if (!fields.every((field) => FIELD.test(field))) throw new Error('A signed link names ids and numbers only');
  return [...fields, signature(await appSecret(db, kind), kind, fields)].join('.');
}

/**
 * The `count` fields a token of `kind` names, or null for anything else: malformed, another
 * kind's, or any character changed. The signature is compared in constant time.
 */
export async function readSignedLink(db: Pick<pg.Pool, 'query'>, kind: LinkKind, token: string, count: number): Promise<string[] | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== count + 1) return null;
  const fields = parts.slice(0, count);
  if (!fields.every((field) => FIELD.test(field))) return null;
  // compared as text: decoding base64 would let a changed last character through
  const given = Buffer.from(parts[count]!);
  const expected = Buffer.from(signature(await appSecret(db, kind), kind, fields));
  return given.length === expected.length && timingSafeEqual(given, expected) ? fields : null;
}
