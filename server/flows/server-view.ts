import type pg from 'pg';
import type { AnyMachineSnapshot } from 'xstate';
import type { Screen } from '../../machines/content/schemas.js';
import { timeLimitSec } from '../../machines/diagnostic/diagnostic.machine.js';
import { isLate, trustedResponseTime } from '../../machines/diagnostic/response-time.js';
import type { FlowMachineName } from '../../machines/protocol/api.js';
import { HttpError } from '../http-error.js';
import type { FlowRow } from './flow-store.js';


/** What the server adds to a machine: rewriting events by its own knowledge, and stamping screens. */
export interface ServerView {
  /** The event to apply in place of the one received. */
  adjust(db: pg.ClientBase, row: FlowRow, event: { type: string }): Promise<{ type: string }>;
  /** True when `next` shows a new screen, so the server stamps when it was shown. */
  startsStep(current: AnyMachineSnapshot, next: AnyMachineSnapshot): boolean;
}

const passThrough: ServerView = {
  adjust: async (_db, _row, event) => event,
  startsStep: () => false,
};

interface DiagnosticSnapshot {
  value: unknown;
  context: { index: number; screens: Screen[]; secondsLeft: number | null };
}

const ANSWERS = new Set(['ANSWER_LIKERT', 'SELECT_OPTION', 'CONFIRM_RANKING']);

/**
 * Timed questions are enforced here, not by the browser's countdown: an answer that arrives after
 * the screen's limit plus the network grace becomes TIME_UP (the auto-answer, marked timedOut),
 * and a response time the server's stamps make implausible is replaced by the server's measure.
 */
const diagnosticView: ServerView = {
  adjust: async (_db, row, event) => {
    if (!ANSWERS.has(event.type) || row.step_elapsed_ms == null) return event;
    const { context } = row.snapshot as unknown as DiagnosticSnapshot;
    const screen = context.screens[context.index];
    if (!screen) return event;
    const elapsed = Number(row.step_elapsed_ms);
    // A vignette's confidence follow-up runs untimed: its clock has stopped (secondsLeft null).
    const limit = context.secondsLeft === null ? null : timeLimitSec(screen);
    if (isLate(elapsed, limit)) return { type: 'TIME_UP' };
    if ('responseTime' in event && typeof event.responseTime === 'number') {
      return { ...event, responseTime: trustedResponseTime(event.responseTime, elapsed) };
    }
    return event;
  },
  startsStep: (current, next) => {
    const before = current as unknown as DiagnosticSnapshot;
    const after = next as unknown as DiagnosticSnapshot;
    return after.context.index !== before.context.index || (before.value === 'interstitial' && after.value !== 'interstitial');
  },
};

/**
 * DIAGNOSTIC_COMPLETED naming the server-run diagnostic flow takes that flow's answers (timed and
 * stamped by the server), not the ones the browser sent along.
 */
const assessmentView: ServerView = {
  adjust: async (db, _row, event) => {
    if (event.type !== 'DIAGNOSTIC_COMPLETED' || !('diagnosticFlowId' in event) || typeof event.diagnosticFlowId !== 'string') {
      return event;
    }
    const found = await db.query<{ state: string; answers: unknown }>(
      "SELECT state, snapshot->'context'->'answers' AS answers FROM flows WHERE id = $1 AND machine = 'diagnostic'",
      [event.diagnosticFlowId],
    );
    const diagnostic = found.rows[0];
    if (!diagnostic) throw new HttpError(400, `event.diagnosticFlowId: no diagnostic flow ${event.diagnosticFlowId}`);
    if (diagnostic.state !== 'done') throw new HttpError(400, 'event.diagnosticFlowId: that diagnostic is not finished yet');
    return { ...event, answers: diagnostic.answers };
  },
  startsStep: () => false,
};

const views: Record<FlowMachineName, ServerView> = {
  assessmentFlow: assessmentView,
  diagnostic: diagnosticView,
  mirror: passThrough,
};

/** The server's additions to a machine. */
export function serverView(machine: FlowMachineName): ServerView {
  return views[machine];
}
