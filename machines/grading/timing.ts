/** Below this a response is too quick to have been read. */
export const FAST_RESPONSE_MS = 2_000;
/** Above this a response suggests distraction or overthinking. */
export const SLOW_RESPONSE_MS = 30_000;

/**
 * The timing modifier of -0.05 under 2 s, -0.03 over 30 s, else 0. It scales the
 * answer's evidence by (1 + modifier), so a rushed answer counts 95% and a slow one 97%.
 */
export function timingModifier(responseTimeMs: number): number {
  if (responseTimeMs < FAST_RESPONSE_MS) return -0.05;
  if (responseTimeMs > SLOW_RESPONSE_MS) return -0.03;
  return 0;
}
