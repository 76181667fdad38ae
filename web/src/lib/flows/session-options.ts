import type { AnyStateMachine, InspectionEvent, Observer } from 'xstate';
import type { FlowMachineName } from '#machines/protocol/api.js';
import type { FlowClient, FlowStartInput, ServerFlow } from './client.js';
import type { FlowSocket } from './socket.js';

/** Where a session's flow comes from: an id to resume, else a body to start a new one with. */
export interface FlowSource {
  flowId?: string | null;
  start?: FlowStartInput | null;
  /** A flow already started for this session elsewhere (the early capture screen): adopted instead; when it fails, `start` is used. */
  started?: Promise<ServerFlow> | null;
}

export interface FlowSessionOptions<TMachine extends AnyStateMachine> {
  name: FlowMachineName;
  /** The shared machine, with the browser's own actions provided (server effects stay no-ops here). */
  machine: TMachine;
  client: FlowClient;
  /** Pushes; null polls instead. */
  socket: FlowSocket | null;
  inspect?: Observer<InspectionEvent>;
  /** Reads the flow again this often while pushes cannot arrive. */
  pollMs?: number;
  /** Told the id of a flow once started or resumed, to keep it for a reload. */
  onFlowId?: (flowId: string) => void;
  /** Joins concurrent starts with the same key (React's development double mount) into one flow. */
  startKey?: string;
  retry?: { baseMs?: number; maxMs?: number };
}
