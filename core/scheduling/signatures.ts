import { createHmac, timingSafeEqual } from 'node:crypto';

/** The scheduling providers whose webhooks this site accepts. */
export type SchedulingProvider = 'calendly' | 'calcom';

/** Calendly's replay window (its documentation's 3 minutes), either way from now. */
const CALENDLY_TOLERANCE_SECONDS = 180;

/** Why a request's signature was refused; the text names the header and is safe to answer with. */
export class SchedulingSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchedulingSignatureError';
  }
}

type Header = string | string[] | undefined;

function hmacHex(key: string, ...parts: (string | Buffer)[]): string {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

/** Compares two hex digests in constant time (lengths are public: both are 64 characters when valid). */
function sameDigest(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Calendly's `t=<unix seconds>,v1=<hex>` header for a body signed at `timestamp` (tests and the sample sender use it). */
export function calendlySignature(key: string, timestamp: number, rawBody: Buffer | string): string {
  return `t=${timestamp},v1=${hmacHex(key, `${timestamp}.`, rawBody)}`;
}

/** Cal.com's X-Cal-Signature-256: the hex HMAC-SHA256 of the raw body. */
export function calcomSignature(key: string, rawBody: Buffer | string): string {
  return hmacHex(key, rawBody);
}

/**
 * Checks Calendly-Webhook-Signature: HMAC-SHA256 over `{t}.{raw body}` with the subscription's
 * signing key, hex in v1; a timestamp more than 3 minutes from now is refused as a possible replay.
 */
export function verifyCalendly(key: string, rawBody: Buffer, header: Header, nowSeconds = Math.floor(Date.now() / 1000)): void {
  if (typeof header !== 'string') throw new SchedulingSignatureError('Missing Calendly-Webhook-Signature header.');
  const fields = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]));
  const t = fields.get('t');
  const v1 = fields.get('v1');
  if (!t || !/^\d{1,12}$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) {
    throw new SchedulingSignatureError('Malformed Calendly-Webhook-Signature header: expected t=<timestamp>,v1=<signature>.');
  }
  if (Math.abs(nowSeconds - Number(t)) > CALENDLY_TOLERANCE_SECONDS) {
    throw new SchedulingSignatureError(
      'Calendly-Webhook-Signature timestamp is more than 3 minutes from now; the request may be a replay.',
    );
  }
  if (!sameDigest(hmacHex(key, `${t}.`, rawBody), v1)) {
    throw new SchedulingSignatureError('Calendly-Webhook-Signature does not match the request body.');
  }
}

/**
 * Checks X-Cal-Signature-256: the hex HMAC-SHA256 of the raw body with the webhook's secret.
 * Cal.com signs no timestamp, so replays are stopped by applying each event id once.
 */
export function verifyCalcom(key: string, rawBody: Buffer, header: Header): void {
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{64}$/.test(header)) {
    throw new SchedulingSignatureError('Missing or malformed X-Cal-Signature-256 header.');
  }
  if (!sameDigest(calcomSignature(key, rawBody), header.toLowerCase())) {
    throw new SchedulingSignatureError('X-Cal-Signature-256 does not match the request body.');
  }
}

/** Which provider sent a request, from the signature header it carries; null when it carries neither. */
export function providerOf(headers: Record<string, Header>): SchedulingProvider | null {
  if (headers['calendly-webhook-signature'] !== undefined) return 'calendly';
  if (headers['x-cal-signature-256'] !== undefined) return 'calcom';
  return null;
}
