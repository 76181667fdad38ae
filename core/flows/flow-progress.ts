import { diagnosticScreens } from '#machines/content/index.js';
import { firstTimedIndex } from '#machines/diagnostic/diagnostic.screens.js';
import type { AssessmentFlowEvent } from '#machines/protocol/assessment-flow.js';
import type { DiagnosticEvent } from '#machines/protocol/diagnostic.js';

/*
 * What a flow has done so far, kept on its flows row as each event is applied (decision 0055): the
 * engine folds every applied event into these in the statement that stores it, so the admin reads
 * (lead_facts' "diagnostic / survey done", drop-off per step) count flows rows instead of
 * aggregating every flow's events. Pure: the engine, the migration's backfill (in SQL, the same
 * rules), the benchmark's seed and the tests fold the same way.
 */

/**
 * The assessment flow's screens in the visitor's order, the branches after the results one after
 * the other; a top-level compound state stands for its children, the booking steps are told apart.
 * completed_results is left out: it shows results again after an end or to a returning visitor.
 * At most 31 (a flow's reached steps are the bits of an int).
 */
export const ASSESSMENT_STEPS = [
  'capture',
  'intro',
  'mirror',
  'diagnostic',
  'survey',
  'email_capture',
  'processing',
  'gaming_detected',
  'results',
  'yes_flow',
  'payment',
  'payment_success.confirmed',
  'payment_success.booking_opened',
  'payment_success.booked',
  'maybe_flow',
  'homework_processing.sending',
  'homework_processing.sent',
  'no_flow.offered',
  'no_flow.joined',
] as const;

/** Where a journey is over (the snapshot corpus's ends): a flow that got there has not dropped off. */
export const ASSESSMENT_ENDS: ReadonlySet<string> = new Set(['payment_success.booked', 'homework_processing.sent', 'no_flow.joined']);

/**
 * A flow's first state is in no event's state_after; for the states a flow can open at, the event
 * that leaves it is taken there and nowhere else, so applying it shows the flow was there.
 */
const OPENING_STATE_OF: Partial<Record<AssessmentFlowEvent['type'], string>> = {
  MIRROR_COMPLETED: 'mirror',
  DIAGNOSTIC_COMPLETED: 'diagnostic',
  SURVEY_SUBMITTED: 'survey',
};

/**
 * The diagnostic's steps in order: its screens by id, with the Timed Questions Ahead notice
 * before the first timed one. Positions are the current bank's (the one new visitors take).
 */
export const DIAGNOSTIC_STEPS: readonly string[] = (() => {
  const ids = diagnosticScreens.map((screen) => screen.id);
  const interstitialAt = firstTimedIndex(diagnosticScreens);
  if (interstitialAt !== null) ids.splice(interstitialAt, 0, 'interstitial');
  return ids;
})();

/** Where a diagnostic stands once every screen is answered (graded on its own, or handed to the assessment). */
export const DIAGNOSTIC_FINISHED: ReadonlySet<string> = new Set(['grading', 'graded', 'done']);

/**
 * The events that record the answer on show and move to the next screen: the machine never goes
 * back, so a flow's step is the number of these it applied (plus START_TIMED, which leaves the
 * notice). A vignette option with a follow-up waits for its confidence (state_after
 * vignette.confidence), and a screen's timer (xstate.after.screenTimeout...) records the timeout
 * answer. Refused events are never stored, so each of these moved the flow on.
 */
const DIAGNOSTIC_ANSWERS: ReadonlySet<string> = new Set<DiagnosticEvent['type']>([
  'ANSWER_LIKERT',
  'SELECT_OPTION',
  'SELECT_CONFIDENCE',
  'CONFIRM_RANKING',
]);

/** A flow's progress, as its flows row keeps it. */
export interface FlowProgress {
  /** A DIAGNOSTIC_COMPLETED (or SURVEY_SUBMITTED) applied and not sent back by a later rushed GRADED. */
  diagnostic_done: boolean;
  survey_done: boolean;
  /** LEAD_SAVED applied: the flow captured its lead. */
  lead_saved: boolean;
  /** SESSION_BOOKED applied: from then on payment_success.booked means booked, not the version 1 name of the page opened. */
  session_booked: boolean;
  /** Assessment flows: bit i set when an event showed the flow at ASSESSMENT_STEPS[i]. */
  steps_reached: number;
  /** Assessment flows: the step of the latest position an event showed, null before any. */
  last_step: number | null;
  /** Diagnostic flows: the steps passed (answers that moved it on, the notice left). */
  steps_passed: number;
}

export const NO_PROGRESS: FlowProgress = {
  diagnostic_done: false,
  survey_done: false,
  lead_saved: false,
  session_booked: false,
  steps_reached: 0,
  last_step: null,
  steps_passed: 0,
};

/** The step an assessment state counts for: its own path's, else its top-level state's; null for none. */
export function assessmentStepOf(state: string): number | null {
  const steps: readonly string[] = ASSESSMENT_STEPS;
  const own = steps.indexOf(state);
  const index = own >= 0 ? own : steps.indexOf(state.split('.')[0]!);
  return index >= 0 ? index : null;
}

const bit = (step: number | null) => (step === null ? 0 : 1 << step);

/** An applied event as flow_events stores it: its type, its payload (the event less its type) and the state it left the flow in. */
export interface ProgressEvent {
  type: string;
  payload: Record<string, unknown>;
  stateAfter: string;
}

/** The progress of a flow of `machine` once `event` is applied. */
export function progressAfter(machine: string, before: FlowProgress, event: ProgressEvent): FlowProgress {
  const rushed = event.type === 'GRADED' && (event.payload.result as { gamingDetected?: unknown } | undefined)?.gamingDetected === true;
  const next: FlowProgress = {
    diagnostic_done: event.type === 'DIAGNOSTIC_COMPLETED' || (before.diagnostic_done && !rushed),
    survey_done: event.type === 'SURVEY_SUBMITTED' || (before.survey_done && !rushed),
    lead_saved: before.lead_saved || event.type === 'LEAD_SAVED',
    session_booked: before.session_booked || event.type === 'SESSION_BOOKED',
    steps_reached: before.steps_reached,
    last_step: before.last_step,
    steps_passed: before.steps_passed,
  };
  if (machine === 'assessmentFlow') {
    // version 1 named the booking page opened payment_success.booked: booked only from the first SESSION_BOOKED on
    const wentTo =
      event.stateAfter === 'payment_success.booked' && !next.session_booked ? 'payment_success.booking_opened' : event.stateAfter;
    const went = assessmentStepOf(wentTo);
    const opening = OPENING_STATE_OF[event.type as AssessmentFlowEvent['type']];
    const left = opening === undefined ? null : assessmentStepOf(opening);
    next.steps_reached = before.steps_reached | bit(went) | bit(left);
    // where the event left the flow comes after where it was; events come in order
    next.last_step = went ?? left ?? before.last_step;
  }
  if (machine === 'diagnostic') {
    const passes =
      (DIAGNOSTIC_ANSWERS.has(event.type) && event.stateAfter !== 'vignette.confidence') ||
      event.type.startsWith('xstate.after.screenTimeout.') ||
      event.type === 'START_TIMED';
    if (passes) next.steps_passed = before.steps_passed + 1;
  }
  return next;
}

/** The progress of a flow that applied `events`, in order. */
export function progressOf(machine: string, events: readonly ProgressEvent[]): FlowProgress {
  return events.reduce((progress, event) => progressAfter(machine, progress, event), NO_PROGRESS);
}
