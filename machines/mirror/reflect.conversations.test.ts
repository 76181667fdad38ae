import { describe, expect, it } from 'vitest';
import type { MirrorTurn } from '../protocol/common.js';
import { RECORDED_CONVERSATIONS } from './conversations.fixtures.js';
import { MIRROR_WELCOME } from './mirror.machine.js';
import { reflect } from './reflect.js';

/** Plays a whole conversation through the engine, each reply feeding the next turn. */
function converse(userMessages: readonly string[]): string[] {
  const history: MirrorTurn[] = [{ role: 'mirror', content: MIRROR_WELCOME }];
  return userMessages.map((content, index) => {
    history.push({ role: 'user', content });
    const reply = reflect(history, index + 1).response;
    history.push({ role: 'mirror', content: reply });
    return reply;
  });
}

const quotesIn = (reply: string) => [...reply.matchAll(/“([^”]*)”/g)].map((m) => m[1]!.replace(/…$/, ''));
/** What the Mirror says in its own voice: the reply with the visitor's quoted words taken out. */
const ownVoice = (reply: string) => reply.replace(/“[^”]*”/g, '“”');
const hasWord = (text: string, word: string) => new RegExp(`(?<![\\p{L}\\p{M}])${word}(?![\\p{L}\\p{M}])`, 'u').test(text);
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe.each(RECORDED_CONVERSATIONS)('a recorded conversation: $title', ({ messages, closing }) => {
  const conversation = converse(messages);
  const last = conversation[4]!;

  it('quotes only words the visitor wrote, and never gives anyone a gender', () => {
    for (const reply of conversation) {
      for (const quote of quotesIn(reply))
        expect(
          messages.some((message) => message.includes(quote)),
          `“${quote}” in ${reply}`,
        ).toBe(true);
      expect(ownVoice(reply)).not.toMatch(/\b(?:he|she|him|her|his|hers)\b/i);
      expect(reply.endsWith('?')).toBe(true);
      expect(words(reply)).toBeLessThanOrEqual(60);
    }
  });

  it('does not quote the same words twice on the way to the closing', () => {
    const quoted = conversation.slice(0, 4).flatMap(quotesIn);
    expect(new Set(quoted).size).toBe(quoted.length);
  });

  it('closes about the people the conversation is about', () => {
    for (const name of closing.names) expect(ownVoice(last), last).toContain(name);
    for (const name of closing.never) expect(hasWord(ownVoice(last), name), last).toBe(false);
  });

  it('begins the closing where the visitor began', () => {
    const began = last.match(/You began with “([^”]*)”/)?.[1]?.replace(/…$/, '');
    if (closing.beganWith === null) {
      expect(began, last).toBeUndefined();
      expect(last).toMatch(/^You came in (?:deciding whether to|choosing between|weighing) “/);
    } else {
      expect(began, last).toBeDefined();
      expect(messages[closing.beganWith]!.startsWith(began!), last).toBe(true);
    }
    if (closing.decision)
      expect(
        quotesIn(last).some((quote) => quote.startsWith(closing.decision!)),
        last,
      ).toBe(true);
  });
});

const withMiddleChecks = RECORDED_CONVERSATIONS.filter((c) => c.replies);

describe.each(withMiddleChecks)('the middle of a recorded conversation: $title', ({ messages, replies = [] }) => {
  it('uses the names the visitor gave', () => {
    const conversation = converse(messages);
    for (const { turn, says = [], never = [] } of replies) {
      const reply = conversation[turn - 1]!;
      for (const name of says) expect(ownVoice(reply), reply).toContain(name);
      for (const word of never) expect(hasWord(ownVoice(reply), word), reply).toBe(false);
    }
  });
});
