/*
 * What the Mirror remembers across the visitor's messages: the people they named (carried by name from
 * one message to the next), the decision and the message it came up in, and where the conversation
 * began. Pure text work like reflect-reading.ts; reflect.ts words the replies.
 */
import { plainText } from './reflect-quote.js';
import { readMessage, type Reading } from './reflect-reading.js';
import type { Signal } from './reflect-signal.js';

/** Someone the visitor named, remembered across messages. */
export interface Person {
  /** How the Mirror names them in its own voice: "Tom", "your boss". */
  name: string;
  /** One person rather than a group such as "your team". */
  individual: boolean;
  /** The messages (0-based) that name them, in order. */
  turns: number[];
}

/** The conversation so far, read as a whole. */
export interface Memory {
  readings: Reading[];
  /** Each message as plain text. */
  texts: string[];
  /** Everyone named so far, in order of first mention. */
  people: Person[];
  /** The people each message names, names first given earlier included; likeliest subject first. */
  mentions: Signal[][];
  /** The first decision stated, and the message it came up in. */
  decision?: { signal: Signal; turn: number };
  /** The first message with something to quote: where the visitor began. */
  beginning?: number;
  /** Who the conversation is about: the people its decision names, else the one named most often. */
  subject: Person[];
}

const SINGULAR = /^(?:he|she|him|her|his|hers)$/i;
const PLURAL = /^(?:they|them|their|theirs)$/i;
const PRONOUN = /(?<![\p{L}'’])(?:he|she|him|her|his|hers|they|them|their|theirs)(?![\p{L}'’])/iu;
const ROLE_NAME = /^(?:your|the) /;
// A role's plural or a collective noun is a group; "your boss" and "your CEO" are one person.
const GROUP = /(?:team|board|staff|reports|[^s]s)$/i;

const isRole = (name: string) => ROLE_NAME.test(name);
// "your boss" and "the boss" are the same person.
const keyOf = (name: string) => name.toLowerCase().replace(ROLE_NAME, 'role:');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A person as a message names them. */
type Mention = Signal & { name: string };

/** Where a name given earlier turns up again: case-sensitive unless the visitor wrote it in lowercase. */
function nameIn(text: string, person: Mention): string | undefined {
  const anyCase = person.quote !== person.name && person.quote.toLowerCase() === person.name.toLowerCase();
  return new RegExp(`(?<![\\p{L}\\p{M}])${escape(person.name)}(?![\\p{L}\\p{M}])`, anyCase ? 'iu' : 'u').exec(text)?.[0];
}

/** The people a message names: what it says itself, plus names given in earlier messages. */
function mentionsIn(reading: Reading, text: string, known: readonly Mention[]): Mention[] {
  const own = reading.people as Mention[];
  if (!reading.english) return own;
  const again = known
    .filter((person) => !isRole(person.name) && !own.some((p) => keyOf(p.name) === keyOf(person.name)))
    .flatMap((person) => {
      const quote = nameIn(text, person);
      return quote ? [{ ...person, quote }] : [];
    });
  return [...own, ...again];
}

/**
 * Which person a pronoun of the visitor's points to: the one that fits in the latest message naming
 * anyone who fits, from this one back; never a guess between two.
 */
export function referent(memory: Pick<Memory, 'people'>, pronoun: string, turn: number): Person | undefined {
  const fits = (person: Person) => (SINGULAR.test(pronoun) ? person.individual : PLURAL.test(pronoun));
  for (let at = turn; at >= 0; at--) {
    const there = memory.people.filter((p) => fits(p) && p.turns.includes(at));
    if (there.length > 0) return there.length === 1 ? there[0] : undefined;
  }
  return undefined;
}

/** The people some words of a message are about: those they name (names before roles), else whom their pronoun means. */
export function peopleIn(memory: Pick<Memory, 'people' | 'mentions'>, words: string, turn: number): Person[] {
  const said = words.replace(/…$/, '').toLowerCase();
  const named = (memory.mentions[turn] ?? [])
    .filter((mention) => said.includes(mention.quote.toLowerCase()))
    .map((mention) => memory.people.find((p) => keyOf(p.name) === keyOf(mention.name!))!);
  if (named.length > 0) return [...named.filter((p) => !isRole(p.name)), ...named.filter((p) => isRole(p.name))];
  const pronoun = PRONOUN.exec(said)?.[0];
  const person = pronoun && referent(memory, pronoun, turn);
  return person ? [person] : [];
}

function subjectOf(memory: Omit<Memory, 'subject'>): Person[] {
  const { decision, people } = memory;
  const inDecision = decision ? peopleIn(memory, decision.signal.quote, decision.turn) : [];
  const names = inDecision.filter((p) => !isRole(p.name));
  if (names.length > 0) return names.slice(0, 2);
  if (inDecision.length > 0) return inDecision.slice(0, 1);
  // Named most often; on a tie, named first.
  const most = people.reduce<Person | undefined>((best, p) => (!best || p.turns.length > best.turns.length ? p : best), undefined);
  return most ? [most] : [];
}

/** Reads the visitor's messages so far as one conversation. */
export function remember(userTurns: readonly string[]): Memory {
  const readings = userTurns.map(readMessage);
  const texts = userTurns.map(plainText);
  const people: Person[] = [];
  const known: Mention[] = [];
  const mentions = readings.map((reading, turn) => {
    const found = mentionsIn(reading, texts[turn]!, known);
    for (const mention of found) {
      const person = people.find((p) => keyOf(p.name) === keyOf(mention.name));
      if (person) {
        if (!person.turns.includes(turn)) person.turns.push(turn);
        continue;
      }
      known.push(mention);
      people.push({ name: mention.name, individual: !isRole(mention.name) || !GROUP.test(mention.name), turns: [turn] });
    }
    return found;
  });
  const decisionTurn = readings.findIndex((r) => r.signals.some((s) => s.kind === 'decision'));
  const decision =
    decisionTurn < 0 ? undefined : { signal: readings[decisionTurn]!.signals.find((s) => s.kind === 'decision')!, turn: decisionTurn };
  const beginning = readings.findIndex((r) => !r.brief && r.gist);
  const memory = { readings, texts, people, mentions, decision, beginning: beginning < 0 ? undefined : beginning };
  return { ...memory, subject: subjectOf(memory) };
}

/** How the Mirror names the people the conversation is about: "Tom", "Aisha and Ben"; undefined when nobody. */
export function subjectName(memory: Memory): string | undefined {
  return memory.subject.map((p) => p.name).join(' and ') || undefined;
}

/** Whether someone a message names is who the conversation is about. */
export function isSubject(memory: Memory, mention: Signal): boolean {
  return memory.subject.some((p) => keyOf(p.name) === keyOf(mention.name!));
}
