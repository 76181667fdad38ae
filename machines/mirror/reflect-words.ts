/*
 * The words of a message: the pieces of the patterns that match a word in a clause, and whether the
 * message reads as English.
 */

// A word inside a clause: anything up to whitespace, clause punctuation or brackets.
const SEPARATORS = '\\s.!?;:,。！？，、()\\[\\]"“”';
export const W = `[^${SEPARATORS}]+`;
export const after = (n: number) => `(?:\\s+${W}){0,${n}}`;
// Starts only where a word starts, which keeps the scan linear on text without spaces.
export const before = (n: number) => `(?<![^${SEPARATORS}])(?:${W}\\s+){0,${n}}`;
export const APOS = "['’]";

// Common English words: enough of them marks a message the English patterns can read.
export const ENGLISH = new Set(
  (
    'i a an the and or but to of in on for with my our we you it is was be am are not do did have has had that this what so if at as me ' +
    "them they he she team about just because should would could i'm i've i'd i'll don't didn't can't won't it's that's between whether"
  ).split(' '),
);

/** The message's words, letters and digits with their apostrophes and hyphens. */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu) ?? [];
}

/** Mostly plain ASCII words, enough of them common English ones. */
export function looksEnglish(words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const ascii = words.filter((w) => /^[a-z'’-]+$/i.test(w)).length / words.length;
  const common = words.filter((w) => ENGLISH.has(w.toLowerCase().replace(/’/g, "'"))).length;
  return ascii >= 0.8 && (words.length < 4 ? common >= 1 || words.length === 1 : common / words.length >= 0.15);
}
