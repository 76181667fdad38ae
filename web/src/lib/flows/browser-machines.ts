import { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import { mirrorMachine } from '#machines/mirror/mirror.machine.js';

/** What the browser does for the assessment flow's one browser-only action. */
export interface BrowserFlowActions {
  clearSavedAnswers(): void;
}

/**
 * The assessment flow as the browser runs it: the shared machine with clearSavedAnswers provided
 * (it forgets this tab's copies of a retaken diagnostic). The server effects (createLead,
 * requestGrading, startPayment, sendHomework, clearStoredAssessment) keep their no-op defaults
 * here: the server performs them when it applies the same event, and their outcomes arrive as the
 * server's snapshot.
 */
export function browserAssessmentFlow(actions: BrowserFlowActions) {
  return assessmentFlowMachine.provide({
    actions: {
      clearSavedAnswers: () => actions.clearSavedAnswers(),
    },
  });
}

/** Longest timer setTimeout takes (about 24.8 days): never, for a page. */
const NEVER_MS = 2 ** 31 - 1;

/**
 * The diagnostic as the browser runs it: its screen timer is switched off. The server runs that
 * timer (a timers job) and records the timeout answer; a snapshot adopted from the server restarts
 * no timers, so a local one would run on some screens and not others, and could move this tab on
 * while the server still waits for an answer. The visible countdown is display only
 * (screen-clock.ts); at zero the screen says time is up and waits for the server's push.
 */
export const browserDiagnostic = diagnosticMachine.provide({ delays: { screenTimeout: NEVER_MS } });

/** The Mirror as the browser runs it: replies and their reveal come from the server's flow. */
export const browserMirror = mirrorMachine;
