import type { Signal } from './reflect-signal.js';
import { DANGLING, quotable } from './reflect-quote.js';
import { APOS, ENGLISH } from './reflect-words.js';

/* The people a message names: roles ("my co-founder") and names, capitalised or not, each once. */

const MAX_NAME_CHARS = 30;

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
const NOT_NAMES = new Set(
  'it this that there they he she we you what when why how who the and but so my our their his her everyone nobody someone something everything nothing today yesterday tomorrow honestly maybe perhaps well yes no ok okay also then now sometimes always never management leadership hr legal finance sales marketing engineering product operations monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december'.split(
    ' ',
  ),
);

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
export function peopleIn(text: string): Signal[] {
  const roles = rolesIn(text);
  const others = roles.filter((r) => r.name!.startsWith('the '));
  const ordered = [...roles.filter((r) => !others.includes(r)), ...namesIn(text), ...others];
  return ordered.filter((p, index) => ordered.findIndex((q) => q.name!.toLowerCase() === p.name!.toLowerCase()) === index);
}
