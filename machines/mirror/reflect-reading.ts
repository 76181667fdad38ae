/*
 * What the Mirror notices in one message of the visitor's: the decision, the people in it, and the
 * language the coaching leans on (feelings, hedges, blame, absolutes, time pressure, ownership,
 * patterns, lessons). Pure text work with no Node imports; the wording lives in reflect.ts.
 */

/** A kind of thing the Mirror can take up. */
export type SignalKind = 'decision' | 'person' | 'feeling' | 'hedge' | 'blame' | 'absolute' | 'time' | 'ownership' | 'pattern' | 'learning';

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
  /** At most one of each kind; the person is the likeliest subject of this message alone. */
  signals: Signal[];
  /** Every person named in the message, most likely subject first. */
  people: Signal[];
  /** The first clause, quotable; null when nothing in the message can be quoted. */
  gist: string | null;
  /** Too little to work with (a word or two, or a greeting). */
  brief: boolean;
  /** Whether the English patterns apply; other languages are answered from the gist alone. */
  english: boolean;
}

const MAX_QUOTE_WORDS = 7;
const MAX_QUOTE_CHARS = 40;
const MAX_NAME_CHARS = 30;

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
    pattern: new RegExp(
      `${before(2)}\\b(?:always|never|every time|everyone|everybody|nobody|no one|nothing|all the time|constantly)\\b${after(4)}`,
      'i',
    ),
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
    pattern: new RegExp(
      `${before(2)}\\b(?:again|every time|pattern|keeps? happening|habit|last time|same thing|used to|tend to)\\b${after(1)}`,
      'i',
    ),
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

const ROLE_NOUNS =
  'co-?founders?|cofounders?|CEO|CTO|CFO|COO|boss|managers?|team leads?|team|board|direct reports?|reports|employees?|staff|' +
  'colleagues?|peers?|clients?|customers?|investors?|business partners?|VPs?|directors?|engineers?|developers?|leadership team|' +
  'executives?|stakeholders?|supervisor';
const ROLE = new RegExp(`\\b(my|our|the)\\s+(${ROLE_NOUNS})\\b`, 'gi');
const ROLE_NOUN = new RegExp(`^(?:${ROLE_NOUNS})$`, 'i');
// A capitalised name, accents and all: Siobhán, Zoë, O'Brien, Anne-Marie, McKenzie.
const NAME = `(?:\\p{Lu}${APOS})?\\p{Lu}\\p{Ll}[\\p{L}\\p{M}]*(?:-\\p{Lu}[\\p{L}\\p{M}]*)?(?![\\p{L}\\p{M}])`;
// Verbs whose object is almost always a person; before a capitalised word, a few more that often have one.
const PERSON_VERBS =
  'told|asked|tell|ask|let|fire|fired|firing|hire|hired|hiring|promote|promoted|promoting|demote|demoting|coach|coaching|' +
  'mentor|mentoring|confront|confronting';
const MORE_PERSON_VERBS = 'with|trust|give|giving|gave|move|moving|replace|replacing|support|supporting|thank|pay|paying|meet|meeting';
const NAME_AFTER = new RegExp(`\\b(?:${MORE_PERSON_VERBS}|${PERSON_VERBS})\\s+(${NAME})`, 'gu');
const SAYING = `said|says|told|thinks|wants|keeps|refuses|refused|didn${APOS}t|doesn${APOS}t|won${APOS}t|never|always`;
const NAME_BEFORE = new RegExp(`(?<![\\p{L}\\p{M}])(${NAME})\\s+(?:${SAYING})\\b`, 'gu');
// A visitor who writes in lowercase writes names that way too; only a person verb's object is taken for one.
const LOWERCASE_NAME_AFTER = new RegExp(`\\b(?:${PERSON_VERBS})\\s+(\\p{Ll}[\\p{Ll}\\p{M}]+)(?![\\p{L}\\p{M}'’-])`, 'gu');
const NOT_LOWERCASE_NAMES = new Set(
  (
    'him her them me us myself yourself himself herself themselves everyone everybody someone somebody anyone anybody people whom ' +
    'go out up back down off around for from within more fast early only some any all another other one two new help each both every ' +
    'things talent permission advice feedback truth slip'
  ).split(' '),
);
// Adverbs, gerunds and plurals ("externally", "something", "contractors") are not names; Emily, Marcus and James are.
const NOT_NAME_ENDING = /(?:.{4,}ly|.{4,}ing|[^aeiousy]s|ers|ors|ies)$/;
// A role followed by a name is one person: "my team lead Dana".
const APPOSITIVE_NAME = new RegExp(`^\\s+(${NAME})`, 'u');
const GREETING = /^(?:hi|hello|hey|hiya|thanks|thank|good (?:morning|afternoon|evening))\b/i;
const NOT_NAMES = new Set(
  'it this that there they he she we you what when why how who the and but so my our their his her everyone nobody someone something everything nothing today yesterday tomorrow honestly maybe perhaps well yes no ok okay also then now sometimes always never management leadership hr legal finance sales marketing engineering product operations monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december'.split(
    ' ',
  ),
);

// Common English words: enough of them marks a message the English patterns can read.
const ENGLISH = new Set(
  (
    'i a an the and or but to of in on for with my our we you it is was be am are not do did have has had that this what so if at as me ' +
    "them they he she team about just because should would could i'm i've i'd i'll don't didn't can't won't it's that's between whether"
  ).split(' '),
);

const PREPOSITIONS = new Set('of to for with at from by about on in'.split(' '));
const OBJECTS = new Set('her you it'.split(' '));
const DANGLING = new Set(
  'a an the and or but so of in on at to for with from by as my our your their his her i we you they he she it is was am are be been have had how what that when if which who just really very before after until about than then because'.split(
    ' ',
  ),
);

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
 * Words fit to quote back: letters, digits and a little punctuation (commas kept, so the words read as
 * written), at most seven words and 40 characters, with an ellipsis when cut. Null when nothing is left.
 */
export function quotable(words: string): string | null {
  const cleaned = words
    .replace(/[^\p{L}\p{M}\p{N}\s'’&%$/,-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,]+|[\s,]+$/g, '');
  if (!/[\p{L}\p{N}]/u.test(cleaned)) return null;
  let cut = cleaned.split(' ').slice(0, MAX_QUOTE_WORDS).join(' ');
  const chars = Array.from(cut);
  if (chars.length > MAX_QUOTE_CHARS) {
    cut = chars.slice(0, MAX_QUOTE_CHARS).join('');
    // Cut back to a whole word when the text has spaces; scripts without them are cut by character.
    if (cut.includes(' ')) cut = cut.slice(0, cut.lastIndexOf(' '));
  }
  // A quote that ends on "the" or "I" reads as cut off: end it on a content word ("because of her" is whole).
  const kept = cut.split(' ');
  const bare = (word: string | undefined) => word?.replace(/,$/, '').toLowerCase() ?? '';
  const objectOfPreposition = () => OBJECTS.has(bare(kept.at(-1))) && PREPOSITIONS.has(bare(kept.at(-2)));
  while (kept.length > 1 && DANGLING.has(bare(kept.at(-1))) && !objectOfPreposition()) kept.pop();
  cut = kept.join(' ').replace(/[\s'’&/,-]+$/u, '');
  return cut === cleaned ? cut : `${cut}…`;
}

function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu) ?? [];
}

function looksEnglish(words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const ascii = words.filter((w) => /^[a-z'’-]+$/i.test(w)).length / words.length;
  const common = words.filter((w) => ENGLISH.has(w.toLowerCase().replace(/’/g, "'"))).length;
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

// The Mirror says a name in its own voice, so a run of letters too long to be one is not taken for one.
const person = (quote: string | null, name: string): Signal[] =>
  quote && Array.from(name).length <= MAX_NAME_CHARS ? [{ kind: 'person', quote, name }] : [];

function isLowercaseName(word: string): boolean {
  if ([NOT_NAMES, NOT_LOWERCASE_NAMES, ENGLISH, DANGLING].some((words) => words.has(word))) return false;
  return !NOT_NAME_ENDING.test(word) && !ROLE_NOUN.test(word);
}

function namesIn(text: string): Signal[] {
  const names = [NAME_AFTER, NAME_BEFORE].flatMap((pattern) => [...text.matchAll(pattern)].map((m) => ({ at: m.index, name: m[1]! })));
  const capitalised = names.filter(({ name }) => !NOT_NAMES.has(name.toLowerCase())).sort((a, b) => a.at - b.at);
  const lowercase = /^\P{L}*\p{Ll}/u.test(text) ? [...text.matchAll(LOWERCASE_NAME_AFTER)].map((m) => m[1]!).filter(isLowercaseName) : [];
  return [
    ...capitalised.flatMap(({ name }) => person(name, name)),
    ...lowercase.flatMap((name) => person(name, name.charAt(0).toUpperCase() + name.slice(1))),
  ];
}

function rolesIn(text: string): Signal[] {
  return [...text.matchAll(ROLE)].flatMap(([phrase, owner, who], index, all) => {
    const rest = text.slice(all[index]!.index + phrase.length);
    const name = APPOSITIVE_NAME.exec(rest)?.[1];
    if (name && !NOT_NAMES.has(name.toLowerCase())) return person(quotable(`${phrase} ${name}`), name);
    return person(quotable(phrase), owner!.toLowerCase() === 'the' ? `the ${who}` : `your ${who}`);
  });
}

// "my team" (or "my team lead Dana") is the visitor's own; a named person comes next; "the board" last. Each person once.
function peopleIn(text: string): Signal[] {
  const roles = rolesIn(text);
  const others = roles.filter((r) => r.name!.startsWith('the '));
  const ordered = [...roles.filter((r) => !others.includes(r)), ...namesIn(text), ...others];
  return ordered.filter((p, index) => ordered.findIndex((q) => q.name!.toLowerCase() === p.name!.toLowerCase()) === index);
}

function gistOf(text: string): string | null {
  const clauses = text
    .split(/[.!?;:\n。！？]+/u)
    .map((c) => c.trim())
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
  const first = clauses.find((c) => wordsOf(c).length >= 2) ?? clauses[0];
  return first ? quotable(first) : null;
}

/** Reads one message of the visitor's. */
export function readMessage(message: string): Reading {
  const text = plainText(message);
  const words = wordsOf(text);
  const english = looksEnglish(words);
  const signals: Signal[] = [];
  const people = english ? peopleIn(text) : [];
  if (english) {
    const decision = decisionIn(text);
    if (decision) signals.push(decision);
    if (people[0]) signals.push(people[0]);
    for (const { kind, pattern } of PATTERNS) {
      const match = pattern.exec(text);
      const quote = match && quotable(match[0]);
      if (quote) signals.push({ kind, quote });
    }
  }
  // Two words or fewer (or a handful of characters in a script without spaces) is too little to mirror; so is a greeting alone.
  const greeting = GREETING.test(text) && words.length <= 6 && signals.length === 0;
  const brief = (words.length <= 2 && Array.from(text).length < 12) || greeting;
  return { signals, people, gist: gistOf(text), brief, english };
}
