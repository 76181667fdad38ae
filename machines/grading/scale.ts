/** Limits value to [min, max]. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Rounds half away from zero to `digits` decimals; EPSILON keeps 1.005 from rounding to 1.00. */
export function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return (Math.sign(value) * Math.round((Math.abs(value) + Number.EPSILON) * factor)) / factor;
}

/** Maps the 1-10 dimension scale linearly onto 0-100 (1 -> 0, 5.5 -> 50, 10 -> 100). */
export function tenToPercent(value: number): number {
  return ((value - 1) / 9) * 100;
}

/** Arithmetic mean; callers never pass an empty list. */
export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
