/*
 * The pure rules by which the browser's optimistic copy of a flow follows the server's (the
 * server is authoritative: architecture.md, "The path of one event"). Kept free of React, the
 * network and timers so they can be tested on their own.
 */

/** The server's copy is ahead of what this tab last confirmed, so it must be adopted. */
export function isAhead(serverVersion: number, confirmedVersion: number | null): boolean {
  return confirmedVersion === null || serverVersion > confirmedVersion;
}

/**
 * Of two candidate server copies (a POST answer and a push that arrived meanwhile), the one to
 * adopt: the later version; the first on a tie, because a push and an answer of the same version
 * carry the same snapshot.
 */
export function latest<T extends { version: number }>(a: T | null, b: T | null): T | null {
  if (!a) return b;
  if (!b) return a;
  return b.version > a.version ? b : a;
}

/**
 * Deep equality of two JSON-like values, ignoring object key order (PostgreSQL's jsonb reorders
 * keys) and treating a key whose value is undefined as absent (JSON drops it on the way).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  return leftKeys.length === rightKeys.length && leftKeys.every((key) => key in right && jsonEqual(left[key], right[key]));
}

/**
 * Milliseconds to wait before reconnect attempt `attempt` (0-based): exponential from `baseMs`,
 * capped at `maxMs`, with "equal jitter" (half fixed, half random) so that many tabs cut off by
 * the same restart do not all come back in the same instant.
 */
export function backoffDelay(attempt: number, { baseMs = 500, maxMs = 15_000, random = Math.random } = {}): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
