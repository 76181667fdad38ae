import type { AnyStateMachine, EventFromLogic } from 'xstate';
import { canAccept } from '#machines/protocol/can-accept.js';
import { ApiError } from '../api.js';
import type { FlowStartInput, ServerFlow } from './client.js';
import { joinedStart } from './joined-starts.js';
import { backoffDelay, isAhead, jsonEqual, latest } from './reconcile.js';
import { actorWithReplay } from './replay.js';
import type { FlowSessionOptions, FlowSource } from './session-options.js';
import { startingView, type FlowView } from './session-view.js';

type AnyEvent = { type: string; [key: string]: unknown };

/**
 * One flow kept in step with the server (architecture.md, "The path of one event"). The browser
 * runs the SAME machine as the server: a visitor's event is applied to the local actor at once
 * (instant feedback) and posted with the version it was applied to; events go one at a time, in
 * order. Whenever the server's copy is ahead (a POST answer, a push, a 409's flow, a re-read after
 * reconnecting) it is adopted: the actor is rebuilt from the server's snapshot and the events not
 * yet sent are replayed on it, dropping any it no longer takes. The server wins; a refused event
 * (409) is dropped together with everything queued after it, because those were chosen on a
 * screen the server says the visitor should not have been on.
 *
 * A restored snapshot schedules none of the machine's delays, so timed transitions (the results
 * delay, the Mirror's reveal) come from the server as pushes; machines whose local timers would
 * race the server's have them disabled by the caller.
 */
export class FlowSession<TMachine extends AnyStateMachine> {
  private view: FlowView<TMachine>;
  private readonly listeners = new Set<() => void>();
  private inFlight: AnyEvent | null = null;
  private queue: AnyEvent[] = [];
  private buffered: ServerFlow | null = null;
  /** The server's latest copy, adopted or held back. */
  private serverFlow: ServerFlow | null = null;
  private hold: ((flow: ServerFlow) => boolean) | null = null;
  private source: FlowSource = {};
  private disposed = false;
  private retryAttempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private unsubscribeSocket: (() => void) | null = null;
  private unsubscribeStatus: (() => void) | null = null;

  constructor(private readonly options: FlowSessionOptions<TMachine>) {
    this.view = startingView(options.socket ? options.socket.status : 'none');
  }

  getView = (): FlowView<TMachine> => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Resumes `source.flowId` when the server still has it, else starts a flow from `source.start`. */
  async start(source: FlowSource): Promise<void> {
    this.source = source;
    this.update({ status: 'starting', error: null });
    try {
      const flow = (await this.resume(source.flowId)) ?? (await source.started?.catch(() => null)) ?? (await this.startNew(source.start));
      if (this.disposed) return;
      this.options.onFlowId?.(flow.flowId);
      this.update({ flowId: flow.flowId, status: 'ready' });
      this.adopt(flow, true);
      this.follow(flow.flowId);
      this.pump();
    } catch (error) {
      if (!this.disposed) this.update({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  /** Starts again from the last source (after an error). */
  retry(): Promise<void> {
    return this.start(this.source);
  }

  /**
   * A visitor's event: applied locally now and posted to the server in turn. Returns false (and
   * does nothing) when the local copy does not take it, e.g. a double click.
   */
  send(event: EventFromLogic<TMachine>): boolean {
    const actor = this.view.actor;
    if (!actor || this.view.held || this.disposed) return false;
    if (!canAccept(this.options.machine, actor.getSnapshot(), event)) return false;
    actor.send(event);
    this.queue.push(event);
    this.update({ pending: this.pendingCount() });
    this.pump();
    return true;
  }

  /**
   * Applies an event to the local copy only (never posted): the browser's fallback when the
   * server cannot answer, e.g. a locally graded result. While `holdWhile` holds for the server's
   * copy, that copy is recorded but not shown, so the visitor is not sent back to a screen they
   * have passed; the first server copy for which it does not hold is adopted as usual.
   */
  applyLocal(event: EventFromLogic<TMachine>, holdWhile: (flow: ServerFlow) => boolean): boolean {
    const actor = this.view.actor;
    if (!actor || this.disposed) return false;
    if (!canAccept(this.options.machine, actor.getSnapshot(), event)) return false;
    actor.send(event);
    this.hold = holdWhile;
    this.update({ held: true });
    return true;
  }

  /** Reads the flow now and adopts it if it is ahead. */
  async refresh(): Promise<void> {
    const flowId = this.view.flowId;
    if (!flowId || this.disposed) return;
    try {
      const flow = await this.options.client.get(flowId);
      if (!this.disposed) this.receive(flow);
    } catch {
      // the next poll, push or reconnect tries again
    }
  }

  dispose(): void {
    this.disposed = true;
    this.unsubscribeSocket?.();
    this.unsubscribeStatus?.();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.view.actor?.stop();
    this.listeners.clear();
  }

  private async resume(flowId: string | null | undefined): Promise<ServerFlow | null> {
    if (!flowId) return null;
    try {
      const flow = await this.options.client.get(flowId);
      return flow.machine === this.options.name ? flow : null;
    } catch (error) {
      // gone (or never valid): start afresh; anything else is a real failure to report
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
      throw error;
    }
  }

  private async startNew(body: FlowStartInput | null | undefined): Promise<ServerFlow> {
    if (!body) throw new Error('There is no flow to resume and none to start.');
    return joinedStart(this.options.startKey, () => this.options.client.start({ ...body, machine: this.options.name }));
  }

  /** Pushes while the socket is open; reads every pollMs while it is not (or without a socket). */
  private follow(flowId: string): void {
    const socket = this.options.socket;
    if (socket) {
      this.unsubscribeSocket = socket.subscribe(flowId, {
        onEvent: (frame) =>
          this.receive({
            flowId: frame.flowId,
            machine: this.options.name,
            version: frame.version,
            state: frame.state,
            snapshot: frame.snapshot,
          }),
        onSubscribed: (version) => {
          if (isAhead(version, this.view.version)) void this.refresh();
        },
      });
      this.unsubscribeStatus = socket.onStatus((status) => {
        this.update({ connection: status });
        // back online: an event waiting for its retry goes now
        if (status === 'open' && this.view.offline) this.retryNow();
      });
      this.update({ connection: socket.status });
    }
    this.pollTimer = setInterval(() => {
      if (!socket || socket.status !== 'open') void this.refresh();
    }, this.options.pollMs ?? 4000);
  }

  /** A server copy from a push or a read: adopted now, or after the POST in flight answers. */
  private receive(flow: ServerFlow): void {
    if (this.inFlight) {
      this.buffered = latest(this.buffered, flow);
      return;
    }
    this.adopt(flow, false);
  }

  private pump(): void {
    if (this.inFlight || this.disposed || !this.queue.length) return;
    const flowId = this.view.flowId;
    if (!flowId) return;
    const event = this.queue.shift()!;
    this.inFlight = event;
    void this.post(flowId, event);
  }

  private async post(flowId: string, event: AnyEvent): Promise<void> {
    let outcome;
    try {
      outcome = await this.options.client.send(flowId, event, this.view.version ?? undefined);
    } catch (error) {
      if (this.disposed) return;
      if (error instanceof ApiError && error.retryable) {
        // kept in flight and posted again with the same expected version: if the first attempt
        // did land, the retry gets a 409 carrying the flow, so it can never apply twice
        this.update({ offline: true });
        this.scheduleRetry(flowId, event);
        return;
      }
      // refused for good (a bad event, a missing flow): drop it and what was queued on top of it
      this.inFlight = null;
      this.queue = [];
      this.buffered = null;
      this.update({ error: error instanceof Error ? error : new Error(String(error)), offline: false, pending: 0 });
      // the local copy still shows the refused event: back to the server's
      const flow = await this.options.client.get(flowId).catch(() => this.serverFlow);
      if (flow && !this.disposed) this.adopt(flow, true);
      this.pump();
      return;
    }
    if (this.disposed) return;
    this.inFlight = null;
    this.retryAttempt = 0;
    const pushed = this.buffered;
    this.buffered = null;
    if (outcome.status === 'conflict') {
      this.queue = [];
      this.update({ offline: false, pending: 0, error: null });
      this.adopt(latest(outcome.flow, pushed)!, true);
    } else {
      this.update({ offline: false, error: null, pending: this.pendingCount() });
      this.adopt(latest(outcome.flow, pushed)!, false);
    }
    this.pump();
  }

  private scheduleRetry(flowId: string, event: AnyEvent): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const delay = backoffDelay(this.retryAttempt++, {
      baseMs: this.options.retry?.baseMs ?? 1000,
      maxMs: this.options.retry?.maxMs ?? 15_000,
    });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.disposed) void this.post(flowId, event);
    }, delay);
  }

  private retryNow(): void {
    const flowId = this.view.flowId;
    if (!this.retryTimer || !this.inFlight || !flowId) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.post(flowId, this.inFlight);
  }

  /** Takes the server's copy when it is ahead (or always, after a refusal). */
  private adopt(flow: ServerFlow, force: boolean): void {
    if (!force && !isAhead(flow.version, this.view.version)) return;
    this.serverFlow = flow;
    this.update({ version: flow.version, serverState: flow.state });
    if (this.hold) {
      if (this.hold(flow)) return;
      this.hold = null;
      this.update({ held: false });
      this.replace(flow);
      return;
    }
    const actor = this.view.actor;
    // the usual case: the server did what this tab predicted, so the actor stays as it is
    if (!force && actor && !this.queue.length && jsonEqual(actor.getPersistedSnapshot(), flow.snapshot)) return;
    this.replace(flow);
  }

  /** A new actor from the server's snapshot, with the events not yet sent replayed on it. */
  private replace(flow: ServerFlow): void {
    const { actor, kept } = actorWithReplay(this.options.machine, flow.snapshot, this.queue, this.options.inspect);
    this.queue = kept;
    const previous = this.view.actor;
    this.update({ actor, pending: this.pendingCount() });
    previous?.stop();
  }

  private pendingCount(): number {
    return this.queue.length + (this.inFlight ? 1 : 0);
  }

  private update(patch: Partial<FlowView<TMachine>>): void {
    const changed = (Object.keys(patch) as Array<keyof FlowView<TMachine>>).some((key) => patch[key] !== this.view[key]);
    if (!changed) return;
    this.view = { ...this.view, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
