import type { Screen } from '../content/diagnostic-bank.js';
import type { DiagnosticAnswers } from '../protocol/common.js';
import type { DiagnosticEvent, DiagnosticResult } from '../protocol/diagnostic.js';
import { firstTimedIndex } from './diagnostic.screens.js';

/** What the diagnostic machine starts from: the bank's screens in order (content's flattenBank). */
interface DiagnosticInput {
  screens: Screen[];
  /** The standalone /diagnostic: graded by the server after the last answer (the modal's is handed to the assessment). */
  standalone?: boolean;
  /** When the flow started, in ms by the server's clock: the first screen was shown then. */
  startedAt?: number;
}

/** What one diagnostic run holds. */
export interface DiagnosticContext {
  screens: Screen[];
  /** 0-based index of the screen being shown; equals screens.length when done. */
  index: number;
  answers: DiagnosticAnswers;
  /** When the screen being shown was shown, in ms by the server's clock; null without the server's stamps. */
  shownAt: number | null;
  /** A vignette option waiting for its confidence follow-up. */
  chosen: { optionId: string; responseTime: number } | null;
  /** The ranking as currently placed, first priority first. */
  ranking: string[];
  /** Index of the first timed screen, before which 'Timed Questions Ahead' is shown. */
  interstitialAt: number | null;
  standalone: boolean;
  /** The standalone diagnostic's result, once graded. */
  result: DiagnosticResult | null;
}

/** What the diagnostic's guards and actions are called with. */
export interface DiagnosticArgs {
  context: DiagnosticContext;
  event: DiagnosticEvent;
}

// Only the types of these values matter: setup() infers the machine's context, events, input and
// output from them (written inline, the `{} as` would read as redundant where the type is inferred).
export const diagnosticTypes = {
  context: {} as DiagnosticContext,
  events: {} as DiagnosticEvent,
  input: {} as DiagnosticInput,
  output: {} as DiagnosticAnswers,
};

/** A run's start: the first screen, shown when the flow started. */
export function initialContext(input: DiagnosticInput): DiagnosticContext {
  return {
    screens: input.screens,
    index: 0,
    answers: {},
    shownAt: input.startedAt ?? null,
    chosen: null,
    ranking: [],
    interstitialAt: firstTimedIndex(input.screens),
    standalone: input.standalone ?? false,
    result: null,
  };
}
