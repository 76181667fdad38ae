/** Network grace after a timed question's limit before an answer counts as late. */
export const TIMED_GRACE_MS = 2000;
/** How far a browser's claimed response time may exceed the server's own measure (clock skew). */
const CLAIM_OVER_MS = 1000;
/** How far it may fall short of it (the round trips between the server's stamp and the screen). */
const CLAIM_UNDER_MS = 10_000;

/** True when an answer arriving `elapsedMs` after its screen was shown is past a `limitSec` clock. */
export function isLate(elapsedMs: number, limitSec: number | null): boolean {
  return limitSec !== null && elapsedMs > limitSec * 1000 + TIMED_GRACE_MS;
}

/**
 * The response time grading uses: the browser's claim when the server's stamps make it plausible,
 * otherwise the server's measure. A browser cannot claim to have taken longer than the server saw
 * (which would dodge the under-2-seconds modifier), nor far less (which would dodge the over-30).
 */
export function trustedResponseTime(claimedMs: number, elapsedMs: number): number {
  const plausible = claimedMs <= elapsedMs + CLAIM_OVER_MS && claimedMs >= elapsedMs - CLAIM_UNDER_MS;
  return plausible ? claimedMs : Math.max(0, Math.round(elapsedMs));
}
