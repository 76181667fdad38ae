import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's replay window: a request signed longer ago than this (or this far ahead) is refused. */
const SLACK_MAX_AGE_SECONDS = 5 * 60;

/** Why a request's signature was refused; the text is safe to answer with. */
export class SlackSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlackSignatureError';
  }
}

/**
 * Checks Slack's v0 request signature: HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the app's
 * signing secret, sent as `v0=<hex>` in X-Slack-Signature, compared in constant time. Throws
 * SlackSignatureError naming what is wrong.
 */
export function verifySlackSignature(input: {
  secret: string;
  rawBody: Buffer;
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
  nowSeconds?: number;
}): void {
  const { secret, rawBody, timestamp, signature } = input;
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) {
    throw new SlackSignatureError('Missing or malformed X-Slack-Request-Timestamp header.');
  }
  if (typeof signature !== 'string' || !/^v0=[0-9a-f]{64}$/.test(signature)) {
    throw new SlackSignatureError('Missing or malformed X-Slack-Signature header.');
  }
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) {
    throw new SlackSignatureError('X-Slack-Request-Timestamp is more than 5 minutes from now; the request may be a replay.');
  }
  const expected = Buffer.from(slackSignature(secret, timestamp, rawBody), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new SlackSignatureError('X-Slack-Signature does not match the request body.');
  }
}

/** The `v0=<hex>` signature Slack sends for a body at a timestamp (also what tests and the sample sender sign with). */
export function slackSignature(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(rawBody).digest('hex')}`;
}
