/*
 * What the Mirror notices in one message of the visitor's: the decision, the people in it, and the
 * language the coaching leans on (feelings, hedges, blame, absolutes, time pressure, ownership,
 * patterns, lessons), found by reflect-signals.ts and reflect-people.ts. Pure text work with no Node
 * imports; the wording lives in reflect.ts.
 */

import { plainText, quotable } from './reflect-quote.js';
import { peopleIn } from './reflect-people.js';
import { decisionIn, PATTERNS } from './reflect-signals.js';
import type { Signal } from './reflect-signal.js';
import { looksEnglish, wordsOf } from './reflect-words.js';

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

const GREETING = /^(?:hi|hello|hey|hiya|thanks|thank|good (?:morning|afternoon|evening))\b/i;

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
