import { clamp } from './scale.js';
import type { MirrorTurn } from './types.js';

/** A pattern in what the visitor wrote to the Mirror, and what it does to the Mirror score. */
export interface MirrorSignal {
  name: string;
  delta: number;
  /** Whether the visitor's turns show it; each signal counts once, however often it recurs. */
  detect: (userTurns: readonly string[]) => boolean;
}

const anyTurn = (pattern: RegExp) => (turns: readonly string[]) => turns.some((t) => pattern.test(t));
const words = (turn: string) => turn.split(/\s+/).filter(Boolean).length;

// Concrete detail: a time, a number, a named occasion or an explicit example.
const CONCRETE =
  /\b(yesterday|today|last (week|month|quarter|year)|this (week|month|morning)|for (example|instance)|when (i|we|she|he|they)|in the meeting|one time|once)\b|\d/i;

/** The Mirror adjustments, in the order the reasoning lists them. */
export const MIRROR_SIGNALS: readonly MirrorSignal[] = [
  {
    name: 'takes ownership',
    delta: 10,
    // "not my fault" is the defensive signal, not ownership.
    detect: anyTurn(
      /\b((?<!not )my (fault|mistake|responsibility|part)|i (should have|could have|was wrong|made a mistake|own (it|that|this)|take responsibility|dropped the ball|messed up))\b/i,
    ),
  },
  { name: 'asks questions', delta: 5, detect: anyTurn(/\?/) },
  {
    name: 'shows vulnerability',
    delta: 10,
    detect: anyTurn(
      /\b(afraid|scared|worried|anxious|insecure|struggl\w*|overwhelm\w*|ashamed|embarrass\w*|honestly|i (don['’]t|do not) know|not sure)\b/i,
    ),
  },
  {
    name: 'reflects on learning',
    delta: 15,
    detect: anyTurn(/\b(learn\w*|lesson|realis\w*|realiz\w*|next time|do (it )?differently|in hindsight)\b/i),
  },
  {
    name: 'names patterns',
    delta: 10,
    detect: anyTurn(/\b(pattern|again and again|every time|i (tend|always seem) to|keep (doing|making|ending up|finding)|habit)\b/i),
  },
  {
    name: 'blames others',
    delta: -20,
    detect: anyTurn(
      /\b(their fault|his fault|her fault|blame (them|him|her|the team)|because of them|they never|they always|incompetent|lazy|useless)\b/i,
    ),
  },
  {
    name: 'is defensive',
    delta: -10,
    detect: anyTurn(/\b(not my fault|i had no choice|anyone would have|what else could i|i did everything|wasn['’]t me)\b/i),
  },
  {
    name: 'avoids examples',
    delta: -10,
    // One short answer is not avoidance; two or more turns without any concrete detail is.
    detect: (turns) => turns.length >= 2 && !turns.some((t) => CONCRETE.test(t)),
  },
  {
    name: 'stays on the surface',
    delta: -15,
    detect: (turns) => turns.reduce((n, t) => n + words(t), 0) / turns.length < 8,
  },
  {
    name: 'seeks validation',
    delta: -10,
    detect: anyTurn(
      // No closing \b: "right?" ends in punctuation, where \b cannot match before the end.
      /\b(right\?|don['’]t you think|do you agree|am i right|was i right|was i wrong|i did the right thing|tell me i)/i,
    ),
  },
];

/** The Mirror score and the signals behind it. */
export interface MirrorScoring {
  score: number;
  fired: MirrorSignal[];
}

/**
 * The Mirror score: 50 plus every signal found in the visitor's own turns, clamped to 0-100.
 * Without any user turn there is nothing to read, so it stays at a neutral 50.
 */
export function mirrorScore(chat: readonly MirrorTurn[]): MirrorScoring {
  const userTurns = chat
    .filter((t) => t.role === 'user')
    .map((t) => t.content.trim())
    .filter(Boolean);
  if (userTurns.length === 0) return { score: 50, fired: [] };
  const fired = MIRROR_SIGNALS.filter((s) => s.detect(userTurns));
  return { score: clamp(50 + fired.reduce((n, s) => n + s.delta, 0), 0, 100), fired };
}
