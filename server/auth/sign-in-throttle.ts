import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * How sign-in guessing is slowed without ever locking the owner out (docs/security.md): each
 * address gets a few free failures per account, then must wait between tries (1 s, doubling, up to
 * 15 minutes); failures from one address never slow another, so strangers cannot keep the coach out.
 * An account that sees many failures in an hour is reported to its owner, once an hour.
 */
export const SIGN_IN_THROTTLE = {
  freeFailures: 5,
  firstWaitMs: 1_000,
  maxWaitMs: 15 * 60_000,
  noticeAfter: 10,
  windowMs: 60 * 60_000,
} as const;

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

/** How long the next try must wait after `failures` failures, in ms (0 while they are free). */
export function waitAfter(failures: number): number {
  if (failures < SIGN_IN_THROTTLE.freeFailures) return 0;
  return Math.min(SIGN_IN_THROTTLE.firstWaitMs * 2 ** (failures - SIGN_IN_THROTTLE.freeFailures), SIGN_IN_THROTTLE.maxWaitMs);
}

/**
 * The counts behind it, in Redis (so they hold across server processes), keyed by hashes of the
 * email and the address, never the values. A Redis outage lets attempts through: the per-address
 * rate limit and the slow password hash still stand.
 */
export class SignInThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  private pairKey(email: string, ip: string): string {
    return `${this.prefix}:sign-in:pair:${hash(`${email}\n${ip}`)}`;
  }

  private accountKey(email: string, what: 'failures' | 'addresses' | 'noticed'): string {
    return `${this.prefix}:sign-in:${what}:${hash(email)}`;
  }

  /** How many ms this address must still wait before it may try this account again; 0 to go ahead. */
  async waitFor(email: string, ip: string): Promise<number> {
    try {
      const [failures, last] = await this.redis.hmget(this.pairKey(email, ip), 'failures', 'last');
      const wait = waitAfter(Number(failures ?? 0));
      return wait ? Math.max(0, Number(last ?? 0) + wait - Date.now()) : 0;
    } catch (error) {
      this.log.warn({ err: error }, 'sign-in throttle unavailable; allowing the attempt');
      return 0;
    }
  }

  /**
   * Records a failure of this address on this account; answers whether the account's owner should
   * now hear of the failures (at most once an hour), with how many there were and from how many addresses.
   */
  async failed(email: string, ip: string): Promise<{ notify: boolean; failures: number; addresses: number }> {
    const window = SIGN_IN_THROTTLE.windowMs;
    try {
      const pair = this.pairKey(email, ip);
      const failuresKey = this.accountKey(email, 'failures');
      const addressesKey = this.accountKey(email, 'addresses');
      const replies = await this.redis
        .multi()
        .hincrby(pair, 'failures', 1)
        .hset(pair, 'last', Date.now())
        .pexpire(pair, window)
        .set(failuresKey, 0, 'PX', window, 'NX')
        .incr(failuresKey)
        .sadd(addressesKey, hash(ip))
        .pexpire(addressesKey, window)
        .scard(addressesKey)
        .exec();
      const failures = Number(replies?.[4]?.[1] ?? 0);
      const addresses = Number(replies?.[7]?.[1] ?? 0);
      if (failures < SIGN_IN_THROTTLE.noticeAfter) return { notify: false, failures, addresses };
      const first = await this.redis.set(this.accountKey(email, 'noticed'), 1, 'PX', window, 'NX');
      return { notify: first === 'OK', failures, addresses };
    } catch (error) {
      this.log.warn({ err: error }, 'sign-in throttle could not count a failure');
      return { notify: false, failures: 0, addresses: 0 };
    }
  }

  /** A success clears this address's failures on the account. */
  async succeeded(email: string, ip: string): Promise<void> {
    await this.redis.del(this.pairKey(email, ip)).catch((error: unknown) => this.log.warn({ err: error }, 'sign-in throttle reset failed'));
  }
}

/** '15 minutes', '1 minute', '40 seconds': how long a wait is, for a 429 message. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
