import { assessmentFlowMachine } from '../../../../machines/assessment-flow/assessment-flow.machine';
import { diagnosticMachine } from '../../../../machines/diagnostic/diagnostic.machine';
import { mirrorMachine } from '../../../../machines/mirror/mirror.machine';
import type { FlowResult } from '../../../../machines/protocol/assessment-flow';
import type { Tier } from '../../../../machines/protocol/common';

/** What the browser does for the assessment flow's browser-only actions. */
export interface BrowserFlowActions {
  storeResult(entry: { result: FlowResult; tier: Tier }): void;
  clearStoredAssessment(): void;
  clearSavedAnswers(): void;
}

/**
 * The assessment flow as the browser runs it: the shared machine with the three browser-storage
 * actions provided. The named server effects (createLead, requestGrading, startPayment,
 * sendHomework) keep their no-op defaults here: the server performs them when it applies the same
 * event, and their outcomes arrive as the server's snapshot.
 */
export function browserAssessmentFlow(actions: BrowserFlowActions) {
  return assessmentFlowMachine.provide({
    actions: {
      storeResult: (_, stored) => actions.storeResult(stored),
      clearStoredAssessment: () => actions.clearStoredAssessment(),
      clearSavedAnswers: () => actions.clearSavedAnswers(),
    },
  });
}

/** Longest timer setTimeout takes (about 24.8 days): never, for a page. */
const NEVER_MS = 2 ** 31 - 1;

/**
 * The diagnostic as the browser runs it. Its one-second countdown ticks are switched off: a
 * snapshot adopted from the server restarts no timers, so local ticks would run on some screens
 * and not others, and a tick reaching zero would record a timeout the server never hears of.
 * The countdown is the screen's own clock instead (use-countdown.ts), anchored to when the screen
 * was first shown and kept across reloads, and its expiry is sent as TIME_UP like any event.
 */
export const browserDiagnostic = diagnosticMachine.provide({ delays: { tick: NEVER_MS } });

/** The Mirror as the browser runs it: replies and their reveal come from the server's flow. */
export const browserMirror = mirrorMachine;
