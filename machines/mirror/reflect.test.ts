import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MirrorTurn } from '../protocol/common.js';
import { mirrorReplyResponseSchema } from '../protocol/mirror.js';
import { MIRROR_WELCOME } from './mirror.machine.js';
import { plainText, quotable } from './reflect-quote.js';
import { readMessage } from './reflect-reading.js';
import type { SignalKind } from './reflect-signal.js';
import { reflect } from './reflect.js';

const welcome: MirrorTurn = { role: 'mirror', content: MIRROR_WELCOME };
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const quotesIn = (text: string) => [...text.matchAll(/“([^”]*)”/g)].map((m) => m[1]!);

/** Plays a whole conversation through the engine, each reply feeding the next turn. */
function converse(userMessages: string[]) {
  const history: MirrorTurn[] = [welcome];
  return userMessages.map((content, index) => {
    history.push({ role: 'user', content });
    const reply = reflect(history, index + 1);
    history.push({ role: 'mirror', content: reply.response });
    return reply;
  });
}

const kinds = (text: string) => readMessage(text).signals.map((s) => s.kind);
const quoteOf = (text: string, kind: SignalKind) => readMessage(text).signals.find((s) => s.kind === kind)?.quote;

afterEach(() => vi.restoreAllMocks());

describe('reading a message', () => {
  it('finds blame language and quotes it', () => {
    expect(quoteOf('Honestly my team didn’t deliver again and I am tired.', 'blame')).toBe('my team didn’t deliver again');
    expect(quoteOf("They never push back in meetings, so I can't tell.", 'blame')).toBe('They never push back');
    expect(quoteOf('It was their fault we missed it.', 'blame')).toBe('their fault');
    expect(kinds('It was not my fault.')).toContain('blame');
    expect(kinds('I was proud of how we handled it.')).not.toContain('blame');
  });

  it('finds absolutes with a few words of context', () => {
    expect(quoteOf('Our sales lead always overpromises to clients.', 'absolute')).toBe('sales lead always overpromises…');
    expect(quoteOf('My team never pushes back.', 'absolute')).toBe('My team never pushes back');
    expect(quoteOf('Nobody tells me the truth.', 'absolute')).toBe('Nobody tells me the truth');
    expect(kinds('It happened once last spring.')).not.toContain('absolute');
  });

  it('finds hedges', () => {
    expect(quoteOf('I think we should wait, but maybe not.', 'hedge')).toBe('I think we should wait');
    expect(quoteOf('Perhaps it is time.', 'hedge')).toBe('Perhaps it is time');
    expect(kinds("I'm not sure anyone noticed.")).toContain('hedge');
    expect(kinds('We will launch on Monday.')).not.toContain('hedge');
  });

  it('finds the decision, people, feelings, time pressure, ownership and patterns', () => {
    const text = "I need to decide whether to let Priya go before the end of the quarter. I'm anxious because my CEO wants an answer.";
    const reading = readMessage(text);
    expect(reading.signals).toEqual(
      expect.arrayContaining([
        { kind: 'decision', quote: 'let Priya go before the end…', frame: 'whether to' },
        { kind: 'person', quote: 'my CEO', name: 'your CEO' },
        { kind: 'feeling', quote: 'anxious' },
        { kind: 'time', quote: 'end of the quarter' },
      ]),
    );
    expect(quoteOf('I should have told her sooner.', 'ownership')).toBe('I should have told her sooner');
    expect(quoteOf('This keeps happening with every new hire.', 'pattern')).toBe('This keeps happening…');
    expect(readMessage('I might fire Jordan next week.').signals).toContainEqual({ kind: 'person', quote: 'Jordan', name: 'Jordan' });
    expect(readMessage("I'm torn between hiring and waiting.").signals).toContainEqual({
      kind: 'decision',
      quote: 'hiring and waiting',
      frame: 'between',
    });
  });

  it('finds every person, names with accents whole, and a role with its name as one person', () => {
    const people = (text: string) => readMessage(text).people.map((p) => p.name);
    expect(people('Should I confront Siobhán? I told Zoë, told O’Brien, then asked Anne-Marie.')).toEqual([
      'Siobhán',
      'Zoë',
      'O’Brien',
      'Anne-Marie',
    ]);
    expect(people('My team lead Dana keeps missing our one-on-ones, and the board noticed.')).toEqual(['Dana', 'the board']);
    expect(readMessage('My team lead Dana keeps missing.').signals).toContainEqual({
      kind: 'person',
      quote: 'My team lead Dana',
      name: 'Dana',
    });
    expect(people('Whether to let Tom go; my boss wants an answer.')).toEqual(['your boss', 'Tom']);
  });

  it('takes a lowercase name only from a visitor who writes in lowercase, after a verb that takes a person', () => {
    expect(readMessage('i need to fire marcus before friday').people).toEqual([{ kind: 'person', quote: 'marcus', name: 'Marcus' }]);
    expect(readMessage('i might hire externally, or promote someone, or ask around').people).toEqual([]);
    expect(readMessage('I need to fire marcus before Friday.').people).toEqual([]);
  });

  it('takes a greeting alone as too little to work with', () => {
    expect(readMessage('Hello, thanks for having me.').brief).toBe(true);
    expect(readMessage('Hi, I need to decide whether to promote Sam.').brief).toBe(false);
  });

  it('reads other languages for their gist only', () => {
    const spanish = readMessage('Tengo que decidir si despido a Marta, pero no sé cómo.');
    expect(spanish).toMatchObject({ english: false, signals: [], gist: 'Tengo que decidir si despido a Marta…' });
    expect(readMessage('我不知道该怎么办。团队不听我的。')).toMatchObject({ english: false, gist: '我不知道该怎么办' });
  });

  it('strips markup and keeps quotes short and clean', () => {
    expect(plainText('<script>alert(1)</script><b>They</b> **never** listen &amp; [shrug](https://x.example)')).toBe(
      'They never listen shrug',
    );
    expect(quotable('one two three four five six seven eight')).toBe('one two three four five six seven…');
    expect(quotable('"quoted" <tag> {braces} and the')).toBe('quoted tag braces…');
    expect(quotable('?!…')).toBeNull();
    expect(Array.from(quotable('这'.repeat(100))!)).toHaveLength(41);
    expect(quotable('Aisha is the stronger leader, but Ben')).toBe('Aisha is the stronger leader, but Ben');
    expect(quotable('Because of her')).toBe('Because of her');
    expect(quotable('She never listens when')).toBe('She never listens…');
  });
});

describe('reflect', () => {
  const story = [
    "I need to decide whether to promote Sam or hire externally. I think Sam is ready but I'm worried about it.",
    'If I get it wrong, my team loses trust in me and we miss the launch by the end of the quarter.',
    "Honestly they never push back in meetings, so I can't tell what they think.",
    'Yes, this happens every time I make a people decision. I tend to delay until it is forced.',
    'I should have asked the team for input earlier. Next time I will ask before deciding.',
  ];

  it('takes up what the visitor wrote, in their words, through the five-exchange arc', () => {
    const replies = converse(story).map((r) => r.response);
    expect(replies[0]).toBe(
      'So the question is whether to “promote Sam or hire externally”. I noticed the word “worried”. What about this decision brings that feeling up most?',
    );
    expect(replies[1]).toContain('“my team”');
    expect(replies[1]).toMatch(/your team/);
    expect(replies[2]).toContain('“they never push back”');
    expect(replies[2]).toMatch(/part of this might be yours|your part/);
    expect(replies[3]).toMatch(/“this happens every time…”|“I tend to delay”/);
    expect(replies[4]).toContain('“promote Sam or hire externally”');
    expect(replies[4]).toContain('“I should have asked the team…”');
    expect(replies[4]).toContain('Your next step, in your words: “Next time I will ask before deciding”');
    expect(replies[4]).toMatch(/follow through|sticks/);
  });

  it('closes by asking what the visitor will do differently when they have not said yet', () => {
    const [, , , , closing] = converse(['Whether to restructure.', 'The whole team.', 'Not sure.', 'Yes, every time.', 'It was my fault.']);
    expect(closing!.response).toContain('You came in deciding whether to “restructure”.');
    expect(closing!.response).toContain('your own part: “my fault”');
    expect(closing!.response).toMatch(/differently/);
  });

  it('completes at the fifth exchange and only then', () => {
    expect(converse(story).map((r) => r.isComplete)).toEqual([false, false, false, false, true]);
  });

  it('gives the same reply for the same conversation, without chance', () => {
    const random = vi.spyOn(Math, 'random');
    expect(converse(story)).toEqual(converse(story));
    expect(random).not.toHaveBeenCalled();
  });

  it('asks different questions for different messages', () => {
    const openings = [
      'Whether to shut down the product line my predecessor built.',
      'My co-founder wants to raise money now and I am not convinced.',
      'I have to tell my team there will be no bonuses this year.',
      'They always miss deadlines and I am done covering for them.',
      'Maybe I should step back from managing and go back to engineering.',
      "Should I confront my boss about the reorg? I'm scared of the fallout.",
      'Letting go of a loyal employee who stopped performing.',
      'We have to pick a vendor by Friday.',
    ];
    const replies = openings.map((text) => reflect([welcome, { role: 'user', content: text }], 1).response);
    expect(new Set(replies).size).toBe(openings.length);
    openings.forEach((text, index) => expect(text).toContain(quotesIn(replies[index]!)[0]!.replace('…', '')));
  });

  it('does not quote the same words back twice', () => {
    const replies = converse(['My boss always overrules me.', 'My boss always overrules me.', 'My boss always overrules me.']);
    const quoted = replies.flatMap((r) => quotesIn(r.response));
    expect(new Set(quoted).size).toBe(quoted.length);
  });

  it('meets very short, non-English, rambling and hostile input gracefully', () => {
    const brief = converse(['ok', '?', 'idk', 'no', 'k']);
    expect(brief[0]!.response).toMatch(/rough answer|few words/);
    expect(brief.every((r) => r.response.endsWith('?'))).toBe(true);

    const spanish = reflect([welcome, { role: 'user', content: 'Mi jefe no me apoya y no sé qué hacer.' }], 2).response;
    expect(spanish).toContain('“Mi jefe no me apoya y no…”');

    const rambling =
      'So there is a lot going on, and the board keeps asking, and honestly I do not know where to start with any of it. '.repeat(30);
    const long = reflect([welcome, { role: 'user', content: rambling }], 3).response;
    expect(words(long)).toBeLessThan(60);

    const hostile = reflect(
      [welcome, { role: 'user', content: '<img src=x onerror=alert(1)> <b>they never listen</b> "quote" `code`' }],
      1,
    ).response;
    expect(hostile).not.toMatch(/[<>"`]|onerror/);
    expect(hostile).toContain('“they never listen');
  });

  it('stays under 60 words when every message is full of things to mirror', () => {
    const loaded =
      "I need to decide whether to restructure the entire engineering organisation this month, I think my CEO always blames my team, they never listen, I'm anxious, I should have spoken up earlier, it keeps happening again and again, next time I will insist on weekly reviews with the board.";
    for (const reply of converse(Array.from({ length: 5 }, () => loaded))) expect(words(reply.response)).toBeLessThanOrEqual(60);
  });

  it('always answers with one short, clean question the machine accepts', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 400 }), { minLength: 1, maxLength: 5 }), (messages) => {
        converse(messages).forEach((reply, index) => {
          expect(mirrorReplyResponseSchema.safeParse(reply).success).toBe(true);
          expect(reply.response.endsWith('?')).toBe(true);
          expect(words(reply.response)).toBeLessThanOrEqual(60);
          expect(reply.response).not.toMatch(/[<>]/);
          expect(reply.isComplete).toBe(index === 4);
          for (const quote of quotesIn(reply.response)) expect(words(quote)).toBeLessThanOrEqual(7);
        });
      }),
    );
  });
});
