/* The decision a message is about and the language the coaching leans on, found by pattern. */

import type { Signal, SignalKind } from './reflect-signal.js';
import { quotable } from './reflect-quote.js';
import { after, APOS, before, W } from './reflect-words.js';

/** The language the coaching leans on, each kind with the pattern that quotes it. */
export const PATTERNS: ReadonlyArray<{ kind: Exclude<SignalKind, 'decision' | 'person'>; pattern: RegExp }> = [
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

/** The decision a message is about, framed as the Mirror will say it. */
export function decisionIn(text: string): Signal | null {
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
