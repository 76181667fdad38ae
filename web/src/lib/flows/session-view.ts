import type { Actor, AnyStateMachine } from 'xstate';
import type { FlowSocketStatus } from './socket.js';

/** Where a session is in getting hold of its flow. */
type FlowSessionStatus = 'starting' | 'ready' | 'error';

/** What a session shows its users; a new object whenever anything in it changes. */
export interface FlowView<TMachine extends AnyStateMachine> {
  status: FlowSessionStatus;
  flowId: string | null;
  /** The last server version this tab has seen and adopted (or held back, see `held`). */
  version: number | null;
  /** The dotted state path of the server's last copy. */
  serverState: string | null;
  /** The local actor: the server's copy plus this tab's unconfirmed events. Replaced when the server's copy is adopted. */
  actor: Actor<TMachine> | null;
  /** Why starting failed, or why the last event was refused for a reason other than a conflict. */
  error: Error | null;
  /** An event could not reach the server and is being retried. */
  offline: boolean;
  /** Events applied locally that the server has not confirmed yet. */
  pending: number;
  /** The push socket's state ('none' when the session has no socket and polls instead). */
  connection: FlowSocketStatus | 'none';
  /** A local-only result is on screen while the server catches up (see applyLocal). */
  held: boolean;
}

/** The view of a session that has not got hold of its flow yet. */
export function startingView<TMachine extends AnyStateMachine>(connection: FlowView<TMachine>['connection']): FlowView<TMachine> {
  return {
    status: 'starting',
    flowId: null,
    version: null,
    serverState: null,
    actor: null,
    error: null,
    offline: false,
    pending: 0,
    connection,
    held: false,
  };
}
