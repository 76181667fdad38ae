import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** Failed sign-ins one email address may have in a window; further attempts wait for the window to end. */
export const SIGN_IN_FAILURE_LIMIT = { max: 5, windowMs: 15 * 60_000 } as const;

/**
 * Counts failed sign-ins per email address in Redis (a fixed window from the first attempt), so
 * guessing one admin's password from many IPs is slowed as much as from one. Keys hold a hash of
 * the address, not the address. Like the IP limiter, a Redis outage lets attempts through.
 */
export class SignInLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  private key(email: string): string {
    return `${this.prefix}:sign-in-failures:${createHash('sha256').update(email).digest('hex')}`;
  }

  /**
   * Counts an attempt before the password is checked, so a burst of parallel guesses cannot all
   * slip past the limit; a success resets the count, which leaves only failures counted.
   * Answers how many milliseconds the address is locked for, 0 when this attempt may go ahead.
   */
  async attempt(email: string): Promise<number> {
    const key = this.key(email);
    try {
      // SET NX starts the window at the first attempt; INCR keeps its expiry
      const replies = await this.redis.multi().set(key, 0, 'PX', SIGN_IN_FAILURE_LIMIT.windowMs, 'NX').incr(key).pttl(key).exec();
      const [, [incrError, count], [ttlError, ttl]] = replies as [unknown, [Error | null, number], [Error | null, number]];
      if (incrError || ttlError) throw incrError ?? ttlError;
      return count > SIGN_IN_FAILURE_LIMIT.max ? Math.max(ttl, 1_000) : 0;
    } catch (error) {
      this.log.warn({ err: error }, 'sign-in limiter unavailable; allowing the attempt');
      return 0;
    }
  }

  /** A successful sign-in clears the address's failures. */
  async reset(email: string): Promise<void> {
    await this.redis.del(this.key(email)).catch((error: unknown) => this.log.warn({ err: error }, 'sign-in limiter reset failed'));
  }
}

/** '15 minutes', '1 minute', '40 seconds': how long a wait is, for a 429 message. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
