import type { MirrorTurn } from '../protocol/common.js';
import { MIRROR_TURN_LIMIT, type MirrorReplyResponse } from '../protocol/mirror.js';
import { isSubject, peopleIn, remember, subjectName, type Memory } from './reflect-memory.js';
import type { Reading } from './reflect-reading.js';
import type { Signal, SignalKind } from './reflect-signal.js';

/**
 * The arc of the five exchanges: what each reply of the Mirror explores. The LLM prompt follows the
 * same arc, so both engines coach alike.
 */
export const MIRROR_STAGES = [
  'the decision itself and what makes it hard',
  'what is at stake and who is affected',
  'their own part in the situation (ownership rather than blame)',
  'the pattern: whether something like this has happened before',
  'what they will do differently, as a brief closing reflection',
] as const;

// 'echo': the visitor wrote words the Mirror had already quoted, but not as their own before: no lead then.
type Kind = SignalKind | 'gist' | 'brief' | 'repeat' | 'echo';
/** A sentence, given the quoted words, and whom it is about as object (n: "them") and as subject (who: "they"). */
type Line = (words: { q: string; n: string; who: string }) => string;

const quoted = (words: string) => `“${words}”`;

const DECISION_LEADS: Record<NonNullable<Signal['frame']>, Line[]> = {
  'whether to': [({ q }) => `You're deciding whether to ${q}.`, ({ q }) => `So the question is whether to ${q}.`],
  between: [({ q }) => `You're choosing between ${q}.`],
  about: [({ q }) => `You're weighing ${q}.`, ({ q }) => `The decision, as you put it, is about ${q}.`],
};

/** The sentence that mirrors what was noticed, in the visitor's own words. */
const LEADS: Record<Exclude<Kind, 'decision' | 'echo'>, Line[]> = {
  person: [({ q }) => `You mentioned ${q}.`, ({ q }) => `You brought in ${q}.`],
  feeling: [({ q }) => `You used the word ${q}.`, ({ q }) => `I noticed the word ${q}.`],
  hedge: [({ q }) => `You said ${q}.`, ({ q }) => `I notice ${q} in how you put that.`],
  blame: [({ q }) => `You said ${q}.`, ({ q }) => `I hear ${q}.`],
  absolute: [({ q }) => `You said ${q}.`, ({ q }) => `You put it as ${q}.`],
  time: [({ q }) => `There's a clock on this: ${q}.`, ({ q }) => `You mentioned ${q}.`],
  ownership: [({ q }) => `You named your own part: ${q}.`, ({ q }) => `You said ${q}.`],
  pattern: [({ q }) => `You said ${q}.`, ({ q }) => `You mentioned ${q}.`],
  learning: [({ q }) => `You said ${q}.`],
  gist: [({ q }) => `You wrote ${q}.`, ({ q }) => `You said ${q}.`],
  brief: [() => 'Take your time; a rough answer is fine.', () => 'Even a few words are a start.'],
  repeat: [() => "You've come back to the same words.", () => 'That is what you said before, too.'],
};

type StageQuestions = Partial<Record<Kind, Line[]>> & { default: Line[] };
const ask = (...questions: string[]): Line[] => questions.map((question) => () => question);

/** Each stage's question, tuned to what the lead took up; `default` when nothing more specific fits. */
const QUESTIONS: readonly StageQuestions[] = [
  {
    default: ask(
      'What makes this decision hard for you, rather than for someone else in your seat?',
      'If it were easy, what would you already have done?',
    ),
    feeling: ask('What about this decision brings that feeling up most?'),
    hedge: ask('What would you say if you had to answer with certainty today?'),
    absolute: ask('Is that true every time, or does it feel that way because this decision is hard?'),
    blame: [({ n }) => `Leaving ${n} aside for a moment, what makes this decision hard for you?`],
    time: ask('Beyond the time you have, what makes this hard to decide?'),
    person: [({ n }) => `What makes this hard when it comes to ${n}?`],
    brief: ask('What is the decision, and what makes it hard to make?'),
  },
  {
    default: ask(
      'What is at stake if you get this wrong, and who would feel it first?',
      'Who is affected by this decision, and what do they stand to gain or lose?',
    ),
    person: [
      ({ n }) => `What is at stake for ${n}, and for you, whichever way you decide?`,
      ({ n }) => `How will ${n} experience this, whichever way you go?`,
    ],
    time: ask('If time runs out before you decide, what happens, and to whom?'),
    feeling: ask('What is that feeling protecting, and who besides you lives with the outcome?'),
    blame: [({ n }) => `What does it cost ${n}, and you, if nothing changes?`],
    absolute: ask('If that stays true, what is at stake, and for whom?'),
    hedge: ask('While this stays undecided, what is at stake for the people around you?'),
    brief: ask('Who would be affected by this decision, and how?'),
  },
  {
    default: ask('What part of this situation is yours?', 'What have you done, or not done, that helped bring things to this point?'),
    blame: [
      ({ who }) => `Whatever ${who} did or didn't do, what part of this might be yours?`,
      ({ n, who }) => `What might this look like to ${n}, and what would ${who} say your part is?`,
    ],
    absolute: ask('What might you be doing that helps keep it that way?'),
    hedge: ask('If you owned your part fully, what would you say it is?'),
    ownership: ask('What would owning that fully look like from here?'),
    person: [({ n }) => `What part of what is happening with ${n} is yours?`],
    time: ask('What part did you play in how little time there is now?'),
    brief: ask('What part of this situation is yours?'),
  },
  {
    default: ask(
      'Has something like this happened before? What did you do then?',
      'Where else in your work have you faced a decision shaped like this one?',
    ),
    absolute: ask('When did that start? Has it followed you from one team or role to another?'),
    blame: ask('Have you felt this way about other people before? What did those situations have in common?'),
    ownership: ask('Is that something you have done before? What tends to set it off?'),
    pattern: ask('What usually sets it in motion, and what do you tend to do next?'),
    feeling: ask('When have you felt this way at work before, and what did you do with it?'),
    hedge: ask('When have you held back from committing like this before, and what happened?'),
    person: [({ n }) => `Have you been here before with ${n}, or with someone like them?`],
    time: ask('Is deciding under pressure like this familiar? What usually happens?'),
    brief: ask('Has something like this happened before?'),
  },
];

/** Which signal each stage takes up first: the ones its question can work with best. */
const PRIORITIES: readonly SignalKind[][] = [
  ['feeling', 'hedge', 'time', 'absolute', 'blame', 'decision', 'person', 'ownership', 'pattern'],
  ['person', 'time', 'blame', 'absolute', 'feeling', 'hedge', 'decision', 'ownership', 'pattern'],
  ['blame', 'ownership', 'absolute', 'hedge', 'person', 'feeling', 'time', 'pattern', 'decision'],
  ['pattern', 'absolute', 'blame', 'ownership', 'feeling', 'hedge', 'person', 'time', 'learning', 'decision'],
];

const CLOSING_DECISIONS: Record<NonNullable<Signal['frame']>, Line[]> = {
  'whether to': [({ q }) => `You came in deciding whether to ${q}.`],
  between: [({ q }) => `You came in choosing between ${q}.`],
  about: [({ q }) => `You came in weighing ${q}.`],
};
// When the decision came up after the first message: where the visitor began, then this.
const LATER_DECISIONS: Record<NonNullable<Signal['frame']>, Line[]> = {
  'whether to': [({ q }) => `it came down to whether to ${q}.`],
  between: [({ q }) => `it came down to choosing between ${q}.`],
  about: [({ q }) => `it came down to ${q}.`],
};
const THANKS = 'Thank you for your honesty.';
const MAX_WORDS = 60;
const CLOSING_QUESTIONS: Line[] = ask(
  'What will you do differently this week, and how will you know it made a difference?',
  'What is one thing you will do differently next time, and who will notice first?',
);
const CLOSING_WITH_PERSON: Line[] = [({ n }) => `What will you do differently with ${n}, starting this week?`];
// When the visitor already named what they will do, the last question is about following through.
const CLOSING_FOLLOW_THROUGH: Line[] = ask(
  'What will help you follow through when the pressure is on?',
  'Who could you tell about it, so that it sticks?',
);

/** FNV-1a: phrasing varies with the text, never with chance, so the same input gives the same reply. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (const char of text) h = Math.imul(h ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return h;
}

const pick = <T>(options: readonly T[], seed: number): T => options[seed % options.length]!;

function say(lines: readonly Line[], seed: number, words: { quote?: string | undefined; name?: string | undefined } = {}): string {
  return pick(lines, seed)({ q: words.quote ? quoted(words.quote) : '', n: words.name ?? 'them', who: words.name ?? 'they' });
}

function decisionLead(signal: Signal, seed: number, leads = DECISION_LEADS): string {
  return say(leads[signal.frame ?? 'about'], seed, signal);
}

// The conversation's subject when this message names them; anyone else only where the stage asks who is
// affected, or while nobody is known yet, so a person mentioned in passing does not take over.
function personToTakeUp(memory: Memory, turn: number, stage: number): Signal | undefined {
  const named = memory.mentions[turn] ?? [];
  return named.find((p) => isSubject(memory, p)) ?? (stage === 2 || memory.subject.length === 0 ? named[0] : undefined);
}

function withoutSignal(reading: Reading, memory: Memory, turn: number, mirrorSaid: string): Kind {
  const gist = reading.gist?.toLowerCase();
  if (reading.brief || !gist) return 'brief';
  if (!mirrorSaid.includes(gist)) return 'gist';
  const saidBefore = memory.texts.slice(0, turn).some((text) => text.toLowerCase().includes(gist.replace(/…$/, '')));
  return saidBefore ? 'repeat' : 'echo';
}

function question(stage: number, kind: Kind, signal: Signal | undefined, memory: Memory, turn: number, seed: number): string {
  const questions = QUESTIONS[stage - 1]!;
  if (kind === 'person') return say(questions.person!, seed, signal);
  // Whom the visitor blames, by the name they gave, when the words or a pronoun say it unambiguously.
  if (kind === 'blame') return say(questions.blame!, seed, { name: peopleIn(memory, signal!.quote, turn)[0]?.name });
  const specific = questions[kind];
  if (specific) return say(specific, seed);
  // Nothing more specific to take up: ask about the people the conversation is about, when known.
  const subject = subjectName(memory);
  return say(subject && questions.person ? questions.person : questions.default, seed, { name: subject });
}

function exploring(stage: number, memory: Memory, mirrorSaid: string, seed: number): string {
  const turn = memory.readings.length - 1;
  const reading = memory.readings[turn]!;
  const person = personToTakeUp(memory, turn, stage);
  const signals = [...reading.signals.filter((s) => s.kind !== 'person'), ...(person ? [person] : [])];
  // A phrase already quoted back in an earlier reply is not quoted again.
  const fresh = signals.filter((s) => !mirrorSaid.includes(s.quote.toLowerCase()));
  const signal = PRIORITIES[stage - 1]!.map((kind) => fresh.find((s) => s.kind === kind)).find(Boolean);
  const kind = signal?.kind ?? withoutSignal(reading, memory, turn, mirrorSaid);
  const asked = question(stage, kind, signal, memory, turn, seed >>> 16);
  if (kind === 'decision') return `${decisionLead(signal!, seed)} ${asked}`;
  const lead = kind === 'echo' ? undefined : say(LEADS[kind], seed, signal ?? { quote: reading.gist ?? undefined });
  // The reply that first hears the decision names it as well.
  const decision = memory.decision?.turn === turn ? fresh.find((s) => s.kind === 'decision') : undefined;
  return [decision && decisionLead(decision, seed), lead, asked].filter(Boolean).join(' ');
}

// "You came in deciding…" only when the decision was there from the start; else where the visitor began, then the decision.
function opening(memory: Memory, seed: number): string | undefined {
  const { decision, beginning } = memory;
  if (decision && (beginning === undefined || decision.turn <= beginning)) return decisionLead(decision.signal, seed, CLOSING_DECISIONS);
  const began = beginning === undefined ? undefined : memory.readings[beginning]!.gist;
  if (!began) return undefined;
  const cameTo = decision && decisionLead(decision.signal, seed, LATER_DECISIONS);
  return cameTo ? `You began with ${quoted(began)}; ${cameTo}` : `You began with ${quoted(began)}.`;
}

const wordCount = (parts: readonly string[]) => parts.join(' ').split(/\s+/).filter(Boolean).length;

function closing(memory: Memory, seed: number): string {
  const { readings } = memory;
  const latestFirst = [...readings].reverse().flatMap((r) => r.signals);
  const ownership = latestFirst.find((s) => s.kind === 'ownership');
  const pattern = latestFirst.find((s) => s.kind === 'pattern');
  const noticed = ownership
    ? `Along the way you named your own part: ${quoted(ownership.quote)}.`
    : pattern && `You also noticed a pattern: ${quoted(pattern.quote)}.`;
  const learning = readings.at(-1)?.signals.find((s) => s.kind === 'learning');
  const subject = subjectName(memory);
  const asked = learning
    ? say(CLOSING_FOLLOW_THROUGH, seed)
    : say(subject ? CLOSING_WITH_PERSON : CLOSING_QUESTIONS, seed, { name: subject });
  const nextStep = learning && `Your next step, in your words: ${quoted(learning.quote)}.`;
  let parts = [opening(memory, seed), noticed, nextStep, THANKS, asked].filter((part): part is string => Boolean(part));
  // Long quotes: the thanks gives way first, then what was noticed along the way.
  for (const optional of [THANKS, noticed]) if (wordCount(parts) > MAX_WORDS) parts = parts.filter((part) => part !== optional);
  return parts.join(' ');
}

/**
 * The Mirror's deterministic reply: a reflective question that takes up what the visitor actually
 * wrote, following the five-exchange arc of MIRROR_STAGES, and remembers across turns whom and what
 * they named; the fifth reply closes the conversation. The same conversation and turn always give the same reply.
 */
export function reflect(conversationHistory: readonly MirrorTurn[], turn: number): MirrorReplyResponse {
  const stage = Math.min(Math.max(Math.trunc(turn), 1), MIRROR_TURN_LIMIT);
  const userTurns = conversationHistory.filter((t) => t.role === 'user').map((t) => t.content);
  const mirrorSaid = conversationHistory
    .filter((t) => t.role === 'mirror')
    .map((t) => t.content.toLowerCase())
    .join('\n');
  const seed = hash(`${stage}\n${userTurns.at(-1) ?? ''}`);
  const memory = remember(userTurns.length > 0 ? userTurns : ['']);
  const response = stage === MIRROR_TURN_LIMIT ? closing(memory, seed) : exploring(stage, memory, mirrorSaid, seed);
  return { response, isComplete: stage === MIRROR_TURN_LIMIT };
}
