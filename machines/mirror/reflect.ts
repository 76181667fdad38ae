import type { MirrorTurn } from '../protocol/common.js';
import { MIRROR_TURN_LIMIT, type MirrorReplyResponse } from '../protocol/mirror.js';
import { readMessage, type Signal, type SignalKind } from './reflect-reading.js';

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

type Kind = SignalKind | 'gist' | 'brief' | 'repeat';
type Line = (words: { q: string; n: string }) => string;

const quoted = (words: string) => `“${words}”`;

const DECISION_LEADS: Record<NonNullable<Signal['frame']>, Line[]> = {
  'whether to': [({ q }) => `You're deciding whether to ${q}.`, ({ q }) => `So the question is whether to ${q}.`],
  between: [({ q }) => `You're choosing between ${q}.`],
  about: [({ q }) => `You're weighing ${q}.`, ({ q }) => `The decision, as you put it, is about ${q}.`],
};

/** The sentence that mirrors what was noticed, in the visitor's own words. */
const LEADS: Record<Exclude<Kind, 'decision'>, Line[]> = {
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
    blame: ask('Leaving them aside for a moment, what makes this decision hard for you?'),
    time: ask('Beyond the time you have, what makes this hard to decide?'),
    person: [({ n }) => `What makes this hard where ${n} is concerned?`],
    brief: ask('What is the decision, and what makes it hard to make?'),
  },
  {
    default: ask(
      'What is at stake if you get this wrong, and who would feel it first?',
      'Who is affected by this decision, and what do they stand to gain or lose?',
    ),
    person: [({ n }) => `What is at stake for ${n}, and for you, whichever way you decide?`, ({ n }) => `How will ${n} experience this, whichever way you go?`],
    time: ask('If time runs out before you decide, what happens, and to whom?'),
    feeling: ask('What is that feeling protecting, and who besides you lives with the outcome?'),
    blame: ask('What does it cost them, and you, if nothing changes?'),
    absolute: ask('If that stays true, what is at stake, and for whom?'),
    hedge: ask('While this stays undecided, what is at stake for the people around you?'),
    brief: ask('Who would be affected by this decision, and how?'),
  },
  {
    default: ask('What part of this situation is yours?', 'What have you done, or not done, that helped bring things to this point?'),
    blame: ask(
      "Whatever they did or didn't do, what part of this might be yours?",
      'What might this look like from where they sit, and what would they say your part is?',
    ),
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

function say(lines: readonly Line[], seed: number, words: { quote?: string; name?: string } = {}): string {
  return pick(lines, seed)({ q: words.quote ? quoted(words.quote) : '', n: words.name ?? 'them' });
}

function decisionLead(signal: Signal, seed: number, leads = DECISION_LEADS): string {
  return say(leads[signal.frame ?? 'about'], seed, signal);
}

function exploring(stage: number, userTurns: readonly string[], mirrorSaid: string, seed: number): string {
  const reading = readMessage(userTurns.at(-1) ?? '');
  // A phrase already quoted back in an earlier reply is not quoted again.
  const fresh = reading.signals.filter((s) => !mirrorSaid.includes(s.quote.toLowerCase()));
  const signal = PRIORITIES[stage - 1]!.map((kind) => fresh.find((s) => s.kind === kind)).find(Boolean);
  const kind: Kind =
    signal?.kind ?? (reading.brief || !reading.gist ? 'brief' : mirrorSaid.includes(reading.gist.toLowerCase()) ? 'repeat' : 'gist');
  const questions = QUESTIONS[stage - 1]!;
  const question = say(questions[kind] ?? questions.default, seed >>> 16, signal);
  if (kind === 'decision') return `${decisionLead(signal!, seed)} ${question}`;
  const lead = say(LEADS[kind], seed, signal ?? { quote: reading.gist ?? undefined });
  // The first reply names the decision as well when the visitor stated one.
  const decision = stage === 1 ? fresh.find((s) => s.kind === 'decision') : undefined;
  return [decision && decisionLead(decision, seed), lead, question].filter(Boolean).join(' ');
}

function closing(userTurns: readonly string[], seed: number): string {
  const readings = userTurns.map(readMessage);
  const all = readings.flatMap((r) => r.signals);
  const latestFirst = [...readings].reverse().flatMap((r) => r.signals);
  const decision = all.find((s) => s.kind === 'decision');
  const first = readings.find((r) => !r.brief && r.gist);
  const opening = decision
    ? decisionLead(decision, seed, CLOSING_DECISIONS)
    : first?.gist && `You began with ${quoted(first.gist)}.`;
  const ownership = latestFirst.find((s) => s.kind === 'ownership');
  const pattern = latestFirst.find((s) => s.kind === 'pattern');
  const noticed = ownership
    ? `Along the way you named your own part: ${quoted(ownership.quote)}.`
    : pattern && `You also noticed a pattern: ${quoted(pattern.quote)}.`;
  const learning = readings.at(-1)?.signals.find((s) => s.kind === 'learning');
  const person = latestFirst.find((s) => s.kind === 'person');
  const question = learning
    ? say(CLOSING_FOLLOW_THROUGH, seed)
    : say(person ? CLOSING_WITH_PERSON : CLOSING_QUESTIONS, seed, person);
  const nextStep = learning && `Your next step, in your words: ${quoted(learning.quote)}.`;
  return [opening, noticed, nextStep, 'Thank you for your honesty.', question].filter(Boolean).join(' ');
}

/**
 * The Mirror's deterministic reply: a reflective question that takes up what the visitor actually
 * wrote, following the five-exchange arc of MIRROR_STAGES; the fifth reply closes the conversation.
 * The same conversation and turn always give the same reply.
 */
export function reflect(conversationHistory: readonly MirrorTurn[], turn: number): MirrorReplyResponse {
  const stage = Math.min(Math.max(Math.trunc(turn), 1), MIRROR_TURN_LIMIT);
  const userTurns = conversationHistory.filter((t) => t.role === 'user').map((t) => t.content);
  const mirrorSaid = conversationHistory.filter((t) => t.role === 'mirror').map((t) => t.content.toLowerCase()).join('\n');
  const seed = hash(`${stage}\n${userTurns.at(-1) ?? ''}`);
  const response = stage === MIRROR_TURN_LIMIT ? closing(userTurns, seed) : exploring(stage, userTurns, mirrorSaid, seed);
  return { response, isComplete: stage === MIRROR_TURN_LIMIT };
}
