/*
 * What the Mirror notices in one message of the visitor's: the decision, the people in it, and the
 * language the coaching leans on (feelings, hedges, blame, absolutes, time pressure, ownership,
 * patterns, lessons). Pure text work with no Node imports; the wording lives in reflect.ts.
 */

/** A kind of thing the Mirror can take up. */
export type SignalKind =
  | 'decision'
  | 'person'
  | 'feeling'
  | 'hedge'
  | 'blame'
  | 'absolute'
  | 'time'
  | 'ownership'
  | 'pattern'
  | 'learning';

/** One thing noticed, with the visitor's own words to quote back. */
export interface Signal {
  kind: SignalKind;
  /** Short, markup-free words from the message. */
  quote: string;
  /** Person: how the Mirror names them in its own voice ("your co-founder", "Sam"). */
  name?: string;
  /** Decision: how the Mirror frames the quote ("whether to", "between", "about"). */
  frame?: 'whether to' | 'between' | 'about';
}

/** One message read: what was noticed, in the order found, and a quotable gist. */
export interface Reading {
  signals: Signal[];
  /** The first clause, quotable; null when nothing in the message can be quoted. */
  gist: string | null;
  /** Too little to work with (a word or two). */
  brief: boolean;
  /** Whether the English patterns apply; other languages are answered from the gist alone. */
  english: boolean;
}

const MAX_QUOTE_WORDS = 7;
const MAX_QUOTE_CHARS = 40;

// A word inside a clause: anything up to whitespace, clause punctuation or brackets.
const SEPARATORS = '\\s.!?;:,。！？，、()\\[\\]"“”';
const W = `[^${SEPARATORS}]+`;
const after = (n: number) => `(?:\\s+${W}){0,${n}}`;
// Starts only where a word starts, which keeps the scan linear on text without spaces.
const before = (n: number) => `(?<![^${SEPARATORS}])(?:${W}\\s+){0,${n}}`;
const APOS = "['’]";

const PATTERNS: ReadonlyArray<{ kind: Exclude<SignalKind, 'decision' | 'person'>; pattern: RegExp }> = [
  {
    kind: 'blame',
    pattern: new RegExp(
      `\\b(?:(?:they|he|she|my team|the team|my boss|management|nobody|no one|everyone else)\\s+(?:just\\s+|simply\\s+)?` +
        `(?:never|always|didn${APOS}t|don${APOS}t|won${APOS}t|wouldn${APOS}t|can${APOS}t|couldn${APOS}t|refused?|refuses|failed|keeps?|ignored?|ignores|dropped|let me down)\\b${after(2)}` +
        `|(?:not my|their|his|her) fault\\b|because of (?:them|him|her)\\b|blam(?:e|ed|ing)\\b${after(2)}|${before(2)}\\b(?:incompetent|lazy|useless)\\b)`,
      'i',
    ),
  },
  {
    kind: 'absolute',
    pattern: new RegExp(`${before(2)}\\b(?:always|never|every time|everyone|everybody|nobody|no one|nothing|all the time|constantly)\\b${after(4)}`, 'i'),
  },
  {
    kind: 'hedge',
    pattern: new RegExp(
      `\\b(?:i think|i don${APOS}t think|i guess|i suppose|i feel like|maybe|perhaps|probably|kind of|sort of|i${APOS}m not sure|not sure|i don${APOS}t know)\\b${after(4)}`,
      'i',
    ),
  },
  {
    kind: 'feeling',
    pattern:
      /\b(?:afraid|scared|worried|anxious|nervous|frustrated|angry|stressed|overwhelmed|guilty|torn|stuck|uncertain|unsure|exhausted|drained|disappointed|ashamed|embarrassed|resentful|lonely|isolated|hurt|uneasy|conflicted|dread(?:ing)?|fear(?:ful)?|excited|relieved|hopeful)\b/i,
  },
  {
    kind: 'time',
    pattern:
      /\b(?:deadline|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|next week|next month|the end of (?:the )?\w+)|end of (?:the )?(?:week|month|quarter|year)|(?:this|next) (?:week|month)|tomorrow|tonight|asap|urgent(?:ly)?|running out of time|no time|in (?:a|one|two|three|four|five|six|\d+) (?:days?|weeks?|months?))\b/i,
  },
  {
    kind: 'ownership',
    pattern: new RegExp(
      `\\b(?:i should(?:n${APOS}t)? have|i could have|(?<!not )my (?:fault|mistake|responsibility|part)|i was wrong|i messed up|i dropped the ball|i own|i take responsibility|i avoided|i didn${APOS}t)\\b${after(4)}`,
      'i',
    ),
  },
  {
    kind: 'pattern',
    pattern: new RegExp(`${before(2)}\\b(?:again|every time|pattern|keeps? happening|habit|last time|same thing|used to|tend to)\\b${after(1)}`, 'i'),
  },
  {
    kind: 'learning',
    pattern: new RegExp(
      `\\b(?:next time|from now on|going forward|in hindsight|i(?:${APOS}ve| have) learn(?:ed|t)|lesson|i realis\\w*|i realiz\\w*)\\b${after(5)}`,
      'i',
    ),
  },
];

const DECISIONS: ReadonlyArray<{ frame: NonNullable<Signal['frame']>; pattern: RegExp }> = [
  {
    frame: 'whether to',
    pattern:
      /\b(?:whether (?:or not )?(?:i should|to)|should i|if i should|decid(?:e|ing) (?:to|if i should)|decision (?:is |was )?(?:whether )?to)\s+/i,
  },
  { frame: 'between', pattern: /\b(?:torn between|choos(?:e|ing) between|decid(?:e|ing) between)\s+/i },
  { frame: 'about', pattern: /\b(?:thinking (?:about|of)|considering|decid(?:e|ing) on|decision (?:is |was )?(?:about|on))\s+/i },
];
// A decision's words stop where the sentence turns to something else.
const JOINER = /^(?:but|because|since|although|though|so|and i|while)$/i;

const ROLE =
  /\b(my|our|the)\s+(co-?founders?|cofounders?|CEO|CTO|CFO|COO|boss|managers?|team leads?|team|board|direct reports?|reports|employees?|staff|colleagues?|peers?|clients?|customers?|investors?|business partners?|VPs?|directors?|engineers?|developers?|leadership team|executives?|stakeholders?|supervisor)\b/gi;
const NAME_AFTER = /\b(?:with|told|asked|tell|ask|let|fire|firing|hire|hiring|promote|promoting|coach|coaching|trust|confront|confronting)\s+(\p{Lu}\p{Ll}+)\b/u;
const NAME_BEFORE = new RegExp(`(?<!\\p{L})(\\p{Lu}\\p{Ll}+)\\s+(?:said|says|told|thinks|wants|keeps|refuses|refused|didn${APOS}t|doesn${APOS}t|won${APOS}t|never|always)\\b`, 'u');
const NOT_NAMES = new Set(
  'it this that there they he she we you what when why how who the and but so my our their his her everyone nobody someone something everything nothing today yesterday tomorrow honestly maybe perhaps well yes no ok okay also then now sometimes always never management leadership monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december'.split(
    ' ',
  ),
);

// Common English words: enough of them marks a message the English patterns can read.
const ENGLISH = new Set(
  'i a an the and or but to of in on for with my our we you it is was be am are not do did have has had that this what so if at as me them they he she team about just because should would could'.split(' '),
);

const DANGLING = new Set('a an the and or but so of in on at to for with from by as my our your their his her i we you they he she it is was am are be been have had how what that when if which who just really very before after until about than then because'.split(' '));

/** The text without markup, links or control characters, whitespace collapsed. */
export function plainText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/<(script|style)\b[^>]{0,500}>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]{0,500}>/g, ' ')
    .replace(/&#?\w{1,10};/g, ' ')
    .replace(/\[([^\]]{0,200})\]\([^)]{0,500}\)/g, '$1')
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/[*_~`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Words fit to quote back: letters, digits and a little punctuation, at most six words and 40
 * characters, with an ellipsis when cut. Null when nothing is left.
 */
export function quotable(words: string): string | null {
  const cleaned = words
    .replace(/[^\p{L}\p{M}\p{N}\s'’&%$/-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(cleaned)) return null;
  let cut = cleaned.split(' ').slice(0, MAX_QUOTE_WORDS).join(' ');
  const chars = Array.from(cut);
  if (chars.length > MAX_QUOTE_CHARS) {
    cut = chars.slice(0, MAX_QUOTE_CHARS).join('');
    // Cut back to a whole word when the text has spaces; scripts without them are cut by character.
    if (cut.includes(' ')) cut = cut.slice(0, cut.lastIndexOf(' '));
  }
  // A quote that ends on "the" or "I" reads as cut off: end it on a content word.
  const kept = cut.split(' ');
  while (kept.length > 1 && DANGLING.has(kept.at(-1)!.toLowerCase())) kept.pop();
  cut = kept.join(' ').replace(/[\s'’&/-]+$/u, '');
  return cut === cleaned ? cut : `${cut}…`;
}

function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu) ?? [];
}

function looksEnglish(words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const ascii = words.filter((w) => /^[a-z'’-]+$/i.test(w)).length / words.length;
  const common = words.filter((w) => ENGLISH.has(w.toLowerCase())).length;
  return ascii >= 0.8 && (words.length < 4 ? common >= 1 || words.length === 1 : common / words.length >= 0.15);
}

function decisionIn(text: string): Signal | null {
  let best: { index: number; frame: NonNullable<Signal['frame']>; rest: string } | null = null;
  for (const { frame, pattern } of DECISIONS) {
    const match = pattern.exec(text);
    if (match && (!best || match.index < best.index)) best = { index: match.index, frame, rest: text.slice(match.index + match[0].length) };
  }
  if (!best) return null;
  const clause = best.rest.match(new RegExp(`^${W}${after(7)}`))?.[0] ?? '';
  const kept: string[] = [];
  for (const word of clause.split(/\s+/)) {
    if (JOINER.test(word) || (word.toLowerCase() === 'i' && kept.length > 1)) break;
    kept.push(word);
  }
  const quote = quotable(kept.join(' '));
  return quote ? { kind: 'decision', quote, frame: best.frame } : null;
}

// "my team" is the visitor's own; a named person comes next; "the board" last.
function personIn(text: string): Signal | null {
  const roles = [...text.matchAll(ROLE)].map(([phrase, owner, who]) => ({
    quote: quotable(phrase),
    name: owner!.toLowerCase() === 'the' ? `the ${who}` : `your ${who}`,
  }));
  const own = roles.find((r) => r.quote && r.name.startsWith('your '));
  if (own) return { kind: 'person', quote: own.quote!, name: own.name };
  for (const pattern of [NAME_AFTER, NAME_BEFORE]) {
    const found = pattern.exec(text)?.[1];
    if (found && !NOT_NAMES.has(found.toLowerCase())) return { kind: 'person', quote: found, name: found };
  }
  const other = roles.find((r) => r.quote);
  return other ? { kind: 'person', quote: other.quote!, name: other.name } : null;
}

function gistOf(text: string): string | null {
  const clauses = text.split(/[.!?;:\n。！？]+/u).map((c) => c.trim()).filter((c) => /[\p{L}\p{N}]/u.test(c));
  const first = clauses.find((c) => wordsOf(c).length >= 2) ?? clauses[0];
  return first ? quotable(first) : null;
}

/** Reads one message of the visitor's. */
export function readMessage(message: string): Reading {
  const text = plainText(message);
  const words = wordsOf(text);
  const english = looksEnglish(words);
  // Two words or fewer (or a handful of characters in a script without spaces) is too little to mirror.
  const brief = words.length <= 2 && Array.from(text).length < 12;
  const signals: Signal[] = [];
  if (english) {
    const decision = decisionIn(text);
    if (decision) signals.push(decision);
    const person = personIn(text);
    if (person) signals.push(person);
    for (const { kind, pattern } of PATTERNS) {
      const match = pattern.exec(text);
      const quote = match && quotable(match[0]);
      if (quote) signals.push({ kind, quote });
    }
  }
  return { signals, gist: gistOf(text), brief, english };
}
