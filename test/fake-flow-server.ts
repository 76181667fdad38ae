import { initialTransition, transition, type AnyStateMachine } from 'xstate';
import { flowMachines } from '#machines/index.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { diagnosticScreens } from '#machines/content/index.js';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import type { FlowSocketServerFrame } from '#machines/protocol/socket.js';
import { ApiError, NETWORK_ERROR_STATUS } from '#web/lib/api.js';
import type { FlowClient, ServerFlow } from '#web/lib/flows/client.js';
import type { SocketLike } from '#web/lib/flows/socket.js';

interface StoredFlow {
  machine: FlowMachineName;
  version: number;
  snapshot: ReturnType<typeof initialTransition>[0];
}

/** Runs `answer` now, as an async method without awaits would: its result resolves, a throw rejects. */
function promised<T>(answer: () => T): Promise<T> {
  return new Promise((resolve) => resolve(answer()));
}

/**
 * An in-memory stand-in for the flow server, for unit tests of the session and socket: the same
 * shared machines and pure transitions as core/flows/engine.ts, the version check, the 409 with
 * the flow, createLead's immediate LEAD_SAVED follow-up, and pushes to fake sockets. Not a model
 * of everything the server does (no timers, no server-side timing).
 */
export class FakeFlowServer {
  readonly flows = new Map<string, StoredFlow>();
  private readonly sockets = new Set<FakeSocket>();
  private ids = 0;
  /** Calls of each kind, for assertions. */
  readonly calls: string[] = [];
  /** Makes the next `n` event posts fail with no answer (after applying them when `landed`). */
  failNextSends = { count: 0, landed: false };

  private nextId(): string {
    this.ids += 1;
    return `00000000-0000-4000-8000-${String(this.ids).padStart(12, '0')}`;
  }

  private response(flowId: string): ServerFlow {
    const flow = this.flows.get(flowId)!;
    const machine = flowMachines[flow.machine] as AnyStateMachine;
    return {
      flowId,
      machine: flow.machine,
      version: flow.version,
      state: statePath(flow.snapshot.value),
      // through JSON, as the server's jsonb would be
      snapshot: JSON.parse(JSON.stringify(machine.getPersistedSnapshot(flow.snapshot))),
    };
  }

  /** Applies an event as the server would; null when the state does not take it. */
  apply(flowId: string, event: { type: string; [key: string]: unknown }, origin: 'client' | 'server' | 'worker'): ServerFlow | null {
    const flow = this.flows.get(flowId)!;
    const machine = flowMachines[flow.machine] as AnyStateMachine;
    const [next, actions] = transition(machine, flow.snapshot, event as never);
    if (next === flow.snapshot && actions.length === 0) return null;
    flow.snapshot = next;
    flow.version += 1;
    const answer = this.response(flowId);
    this.broadcast({ type: 'event', flowId, version: answer.version, origin, event, state: answer.state, snapshot: answer.snapshot });
    let latest = answer;
    for (const action of actions) {
      if ((action.type as string) === 'createLead')
        latest = this.apply(flowId, { type: 'LEAD_SAVED', leadId: this.nextId() }, 'server') ?? latest;
    }
    return latest;
  }

  private broadcast(frame: FlowSocketServerFrame): void {
    for (const socket of this.sockets) if (socket.subscriptions.has((frame as { flowId: string }).flowId)) socket.deliver(frame);
  }

  readonly client: FlowClient = {
    start: (body) =>
      promised(() => {
        this.calls.push('start');
        const name = body.machine ?? 'assessmentFlow';
        const machine = flowMachines[name] as AnyStateMachine;
        const input =
          name === 'diagnostic'
            ? { screens: diagnosticScreens.slice(0, 3) }
            : name === 'assessmentFlow'
              ? { mode: body.mode, testingMode: body.testing, knownSession: body.knownSession }
              : undefined;
        const [snapshot] = initialTransition(machine, input);
        const flowId = this.nextId();
        this.flows.set(flowId, { machine: name, version: 0, snapshot });
        return this.response(flowId);
      }),
    get: (flowId) =>
      promised(() => {
        this.calls.push('get');
        if (!this.flows.has(flowId)) throw new ApiError(404, `No flow with id ${flowId}`);
        return this.response(flowId);
      }),
    send: (flowId, event, expectedVersion) =>
      promised(() => {
        this.calls.push(`send:${event.type}`);
        if (this.failNextSends.count > 0) {
          this.failNextSends.count -= 1;
          if (this.failNextSends.landed) this.apply(flowId, event, 'client');
          throw new ApiError(NETWORK_ERROR_STATUS, 'offline');
        }
        const flow = this.flows.get(flowId);
        if (!flow) throw new ApiError(404, 'gone');
        if (expectedVersion !== undefined && expectedVersion !== flow.version) {
          return { status: 'conflict', flow: this.response(flowId), message: 'version' };
        }
        const applied = this.apply(flowId, event, 'client');
        return applied
          ? { status: 'applied', flow: applied }
          : { status: 'conflict', flow: this.response(flowId), message: `${event.type} is not allowed` };
      }),
    config: () =>
      Promise.resolve({
        paymentMode: 'test',
        depositCents: 25_000,
        mirrorEngine: 'built-in',
        bookingUrl: null,
        ...DEFAULT_SITE_SETTINGS,
      }),
    purgeTestLeads: () => Promise.resolve(0),
  };

  /** A socket factory for FlowSocket that talks to this server. */
  createSocket = (): SocketLike => {
    const socket = new FakeSocket(this);
    this.sockets.add(socket);
    queueMicrotask(() => socket.open());
    return socket;
  };

  /** Drops every socket connection, as a server restart would. */
  dropSockets(): void {
    for (const socket of [...this.sockets]) socket.serverClose();
  }

  forget(socket: FakeSocket): void {
    this.sockets.delete(socket);
  }

  /** How many open sockets follow `flowId` (their pushes reach them from now on). */
  followers(flowId: string): number {
    return [...this.sockets].filter((socket) => socket.subscriptions.has(flowId)).length;
  }

  versionOf(flowId: string): number {
    return this.flows.get(flowId)!.version;
  }
}

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  readonly subscriptions = new Set<string>();

  constructor(private readonly server: FakeFlowServer) {}

  open(): void {
    if (this.readyState !== 0) return;
    this.readyState = 1;
    this.onopen?.({});
    this.deliver({ type: 'hello' });
  }

  deliver(frame: FlowSocketServerFrame): void {
    if (this.readyState === 1) queueMicrotask(() => this.onmessage?.({ data: JSON.stringify(frame) }));
  }

  send(data: string): void {
    const frame = JSON.parse(data) as { type: string; flowId?: string };
    if (frame.type === 'ping') this.deliver({ type: 'pong' });
    if (frame.type === 'subscribe' && frame.flowId) {
      this.subscriptions.add(frame.flowId);
      this.deliver({ type: 'subscribed', flowId: frame.flowId, version: this.server.versionOf(frame.flowId) });
    }
    if (frame.type === 'unsubscribe' && frame.flowId) this.subscriptions.delete(frame.flowId);
  }

  close(): void {
    this.serverClose();
  }

  serverClose(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.server.forget(this);
    queueMicrotask(() => this.onclose?.({}));
  }
}
