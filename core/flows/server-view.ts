import type pg from 'pg';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { diagnosticAnswersOf, mirrorConversationOf } from '#machines/protocol/snapshots.js';
import { HttpError } from '../http-error.js';
import type { FlowRow } from './flow-store.js';

/** What the server adds to a machine: rewriting events by its own knowledge. */
export interface ServerView {
  /** The event to apply in place of the one received. */
  adjust(db: pg.ClientBase, row: FlowRow, event: { type: string }): Promise<{ type: string }>;
}

const passThrough: ServerView = {
  adjust: (_db, _row, event) => Promise.resolve(event),
};

/** A finished child flow (the diagnostic or the Mirror) of the same visitor, or a 400 naming the field. */
async function finishedChild(db: pg.ClientBase, parent: FlowRow, field: string, id: unknown, machine: FlowMachineName, finalState: string) {
  if (typeof id !== 'string') throw new HttpError(400, `event.${field}: required; the server takes the answers from that flow`);
  const found = await db.query<{ state: string; snapshot: unknown; visitor_id: string | null }>(
    'SELECT state, snapshot, visitor_id FROM flows WHERE id = $1 AND machine = $2',
    [id, machine],
  );
  const child = found.rows[0];
  // another visitor's flow is as unknown as a missing one
  if (!child || child.visitor_id !== parent.visitor_id) throw new HttpError(400, `event.${field}: no ${machine} flow ${id}`);
  if (child.state !== finalState) throw new HttpError(400, `event.${field}: that ${machine} is not finished yet`);
  return child.snapshot;
}

/**
 * DIAGNOSTIC_COMPLETED and MIRROR_COMPLETED name the visitor's own server-run diagnostic or Mirror
 * flow, and the server takes that flow's answers (timed and stamped by the server) or
 * conversation, never the copy the browser sent along.
 */
const assessmentView: ServerView = {
  adjust: async (db, row, event) => {
    if (event.type === 'DIAGNOSTIC_COMPLETED') {
      const id = (event as { diagnosticFlowId?: unknown }).diagnosticFlowId;
      const snapshot = await finishedChild(db, row, 'diagnosticFlowId', id, 'diagnostic', 'done');
      return { ...event, answers: diagnosticAnswersOf(snapshot) };
    }
    if (event.type === 'MIRROR_COMPLETED') {
      const id = (event as { mirrorFlowId?: unknown }).mirrorFlowId;
      const conversation = mirrorConversationOf(await finishedChild(db, row, 'mirrorFlowId', id, 'mirror', 'complete'));
      if (!conversation) throw new HttpError(400, 'event.mirrorFlowId: that conversation has no messages');
      return { ...event, sessionId: conversation.sessionId, chat: conversation.messages };
    }
    return event;
  },
};

const views: Record<FlowMachineName, ServerView> = {
  assessmentFlow: assessmentView,
  // the diagnostic times its screens itself, by the `at` the engine stamps on every event
  diagnostic: passThrough,
  mirror: passThrough,
};

/** The server's additions to a machine. */
export function serverView(machine: FlowMachineName): ServerView {
  return views[machine];
}
