import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import type { Actor, AnyStateMachine, EventFromLogic, SnapshotFrom } from 'xstate';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { createFlowClient, type FlowClient, type FlowStartInput, type ServerFlow } from './client.js';
import { inspectOption } from './inspect.js';
import { FlowSession } from './session.js';
import { startingView, type FlowView } from './session-view.js';
import { FlowSocket, socketUrlFor } from './socket.js';

let browserClient: FlowClient | null = null;
let browserSocket: FlowSocket | null = null;

/** The page's flow client (same origin). */
export function sharedFlowClient(): FlowClient {
  return (browserClient ??= createFlowClient());
}

/** The page's one flow socket, shared by every flow it follows. */
function sharedFlowSocket(): FlowSocket | null {
  if (typeof window === 'undefined' || typeof WebSocket === 'undefined') return null;
  return (browserSocket ??= new FlowSocket({ url: socketUrlFor(window.location.origin) }));
}

export interface UseServerFlowOptions {
  /** The flow to resume; when absent or gone, one is started from `start`. */
  flowId?: string | null;
  start?: FlowStartInput | null;
  /** A flow already started elsewhere (the early capture screen), adopted instead of starting one. */
  started?: Promise<ServerFlow> | null;
  /** Told the flow's id once started or resumed (keep it for a reload or another tab). */
  onFlowId?: (flowId: string) => void;
  /** Changing it drops the current session and opens another (e.g. 'reset' in testing mode). */
  sessionKey?: string;
  client?: FlowClient;
  /** null: no pushes, poll instead. Defaults to the page's shared socket. */
  socket?: FlowSocket | null;
  pollMs?: number;
}

/** What useServerFlow gives a component. */
export interface ServerFlowHandle<TMachine extends AnyStateMachine> extends FlowView<TMachine> {
  /** Applies the event locally at once and posts it to the server; false when the local copy refuses it. */
  send: (event: EventFromLogic<TMachine>) => boolean;
  /** Local-only event (never posted), shown until the server's copy stops matching `holdWhile`. */
  applyLocal: (event: EventFromLogic<TMachine>, holdWhile: (flow: ServerFlow) => boolean) => boolean;
  /** Reads the flow from the server now. */
  refresh: () => Promise<void>;
  /** Starts again after an error. */
  retry: () => void;
}

/**
 * Runs a shared machine as a server flow: the local actor (an optimistic replica with the
 * browser's actions) gives instant feedback, every visitor event is posted with the version it
 * was applied to, and the server's copy is adopted whenever it is ahead (see FlowSession). Read
 * the actor's snapshot with `useFlowSnapshot(handle.actor)` (@xstate/react's useSelector).
 *
 * `machine` must be stable (define it at module level or memoize it): a new machine opens a new
 * session.
 */
export function useServerFlow<TMachine extends AnyStateMachine>(
  name: FlowMachineName,
  machine: TMachine,
  options: UseServerFlowOptions,
): ServerFlowHandle<TMachine> {
  const { sessionKey = '' } = options;
  const [session, setSession] = useState<FlowSession<TMachine> | null>(null);
  // the latest options without re-opening the session on every render
  const readOptions = useEffectEvent(() => options);
  const onFlowId = useEffectEvent((flowId: string) => options.onFlowId?.(flowId));

  useEffect(() => {
    const current = readOptions();
    const socket = current.socket === undefined ? sharedFlowSocket() : current.socket;
    const created = new FlowSession<TMachine>({
      name,
      machine,
      client: current.client ?? sharedFlowClient(),
      socket,
      inspect: inspectOption(),
      pollMs: current.pollMs,
      onFlowId: (flowId) => onFlowId(flowId),
      startKey: `${name}:${sessionKey}:${current.flowId ?? ''}:${JSON.stringify(current.start ?? null)}`,
    });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the session is made here (it opens requests and a socket, and cleanup disposes it), so render learns of it only from here
    setSession(created);
    void created.start({ flowId: current.flowId, start: current.start, started: current.started });
    return () => {
      created.dispose();
      setSession((existing) => (existing === created ? null : existing));
    };
  }, [name, machine, sessionKey]);

  const view = useSyncExternalStore(
    useCallback((listener: () => void) => session?.subscribe(listener) ?? (() => {}), [session]),
    () => session?.getView() ?? STARTING,
    () => session?.getView() ?? STARTING,
  ) as FlowView<TMachine>;

  const send = useCallback((event: EventFromLogic<TMachine>) => session?.send(event) ?? false, [session]);
  const applyLocal = useCallback(
    (event: EventFromLogic<TMachine>, holdWhile: (flow: ServerFlow) => boolean) => session?.applyLocal(event, holdWhile) ?? false,
    [session],
  );
  const refresh = useCallback(() => session?.refresh() ?? Promise.resolve(), [session]);
  const retry = useCallback(() => void session?.retry(), [session]);
  return { ...view, send, applyLocal, refresh, retry };
}

const STARTING: FlowView<AnyStateMachine> = startingView('none');

const identity = <T>(value: T) => value;

/** The actor's current snapshot, re-rendering on every change (@xstate/react's useSelector). */
export function useFlowSnapshot<TMachine extends AnyStateMachine>(actor: Actor<TMachine>): SnapshotFrom<TMachine> {
  return useSelector(actor, identity);
}
