import { flowSocketServerFrameSchema, type FlowSocketClientFrame, type FlowSocketServerFrame } from '#machines/protocol/socket.js';
import { backoffDelay } from './reconcile.js';

/** A push: one event applied to a subscribed flow, with the snapshot it produced. */
type FlowPushFrame = Extract<FlowSocketServerFrame, { type: 'event' }>;

/** What a subscriber hears about its flow. */
export interface FlowSocketListener {
  /** An event applied to the flow (by any tab, the server's timers or a worker). */
  onEvent(frame: FlowPushFrame): void;
  /**
   * The server confirmed the subscription, with the flow's version at that moment. Sent after
   * every (re)connect: a version ahead of the subscriber's means pushes were missed while the
   * socket was down, and the flow must be read again.
   */
  onSubscribed?(version: number): void;
  /** The server could not subscribe this flow (e.g. no such flow). */
  onError?(message: string): void;
}

/** 'open' once the socket is connected; 'connecting' while (re)trying; 'idle' with nothing to follow. */
export type FlowSocketStatus = 'idle' | 'connecting' | 'open';

/** The part of the WebSocket API used here: the browser's, or the `ws` package's in Node tests. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

/** Makes a socket: `new WebSocket(url)` by default. */
export type SocketFactory = (url: string) => SocketLike;

const OPEN = 1;

export interface FlowSocketOptions {
  /** ws(s)://host/api/ws. */
  url: string;
  /** Tests pass the `ws` package (Node 20 has no global WebSocket). */
  createSocket?: SocketFactory;
  /** Keep-alive: a ping this often while open (proxies close idle sockets). */
  pingMs?: number;
  /** A ping not answered by a pong within this long means a dead connection: close and reconnect. */
  pongTimeoutMs?: number;
  backoff?: { baseMs?: number; maxMs?: number; random?: () => number };
}

/**
 * The flow socket of server/sockets/flows.ts, shared by every flow on the page. It connects
 * while at least one flow is followed, re-subscribes every flow after each (re)connect (so the
 * server answers `subscribed` with each flow's version and the session re-reads what it missed),
 * reconnects with jittered exponential backoff, and pings to keep the connection (and its own
 * idea of whether it is alive) honest. Frames are JSON checked with the shared zod schema.
 */
export class FlowSocket {
  private readonly listeners = new Map<string, Set<FlowSocketListener>>();
  private readonly statusListeners = new Set<(status: FlowSocketStatus) => void>();
  private socket: SocketLike | null = null;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private currentStatus: FlowSocketStatus = 'idle';
  private readonly createSocket: SocketFactory;
  private readonly pingMs: number;
  private readonly pongTimeoutMs: number;
  private readonly detachWindow: () => void;

  constructor(private readonly options: FlowSocketOptions) {
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.pingMs = options.pingMs ?? 25_000;
    this.pongTimeoutMs = options.pongTimeoutMs ?? 10_000;
    this.detachWindow = this.watchWindow();
  }

  get status(): FlowSocketStatus {
    return this.currentStatus;
  }

  /** Calls `listener` with every status change until the returned function is called. */
  onStatus(listener: (status: FlowSocketStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Follows a flow until the returned function is called; connects if needed. */
  subscribe(flowId: string, listener: FlowSocketListener): () => void {
    let set = this.listeners.get(flowId);
    const isNew = !set;
    if (!set) this.listeners.set(flowId, (set = new Set()));
    set.add(listener);
    if (this.socket?.readyState === OPEN && isNew) this.sendFrame({ type: 'subscribe', flowId });
    if (!this.socket && !this.reconnectTimer) this.connect();
    return () => {
      const current = this.listeners.get(flowId);
      if (!current?.delete(listener) || current.size) return;
      this.listeners.delete(flowId);
      if (this.socket?.readyState === OPEN) this.sendFrame({ type: 'unsubscribe', flowId });
      if (!this.listeners.size) this.disconnect();
    };
  }

  /** Tries to connect at once (e.g. the network came back), skipping the backoff wait. */
  reconnectNow(): void {
    if (!this.listeners.size || this.socket) return;
    this.clearReconnect();
    this.connect();
  }

  /** Closes the connection and forgets every subscription. */
  close(): void {
    this.listeners.clear();
    this.disconnect();
    this.detachWindow();
  }

  private setStatus(status: FlowSocketStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }

  private connect(): void {
    this.setStatus('connecting');
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.setStatus('open');
      for (const flowId of this.listeners.keys()) this.sendFrame({ type: 'subscribe', flowId });
      this.startPinging();
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(event.data);
    };
    // onerror is always followed by onclose, which decides what happens next
    socket.onerror = () => {};
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopPinging();
      if (this.listeners.size) this.scheduleReconnect();
      else this.setStatus('idle');
    };
  }

  private disconnect(): void {
    this.clearReconnect();
    this.stopPinging();
    const socket = this.socket;
    this.socket = null;
    this.attempt = 0;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = null;
      socket.onerror = () => {};
      try {
        socket.close(1000, 'done');
      } catch {
        // closing a socket that never opened can throw in some browsers; it is gone either way
      }
    }
    this.setStatus('idle');
  }

  private scheduleReconnect(): void {
    this.setStatus('connecting');
    this.clearReconnect();
    const delay = backoffDelay(this.attempt++, this.options.backoff);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.listeners.size && !this.socket) this.connect();
    }, delay);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private startPinging(): void {
    this.stopPinging();
    this.pingTimer = setInterval(() => {
      this.sendFrame({ type: 'ping' });
      if (!this.pongTimer) {
        this.pongTimer = setTimeout(() => {
          this.pongTimer = null;
          // no pong: the connection is dead even if the browser has not noticed yet
          this.socket?.close(4000, 'no pong');
        }, this.pongTimeoutMs);
      }
    }, this.pingMs);
  }

  private stopPinging(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    this.pingTimer = this.pongTimer = null;
  }

  private sendFrame(frame: FlowSocketClientFrame): void {
    try {
      this.socket?.send(JSON.stringify(frame));
    } catch {
      // a send on a closing socket fails; the close handler reconnects and re-subscribes
    }
  }

  private receive(data: unknown): void {
    let json: unknown;
    try {
      json = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    const parsed = flowSocketServerFrameSchema.safeParse(json);
    if (!parsed.success) return;
    const frame = parsed.data;
    // any frame proves the connection alive
    if (this.pongTimer) {
      clearTimeout(this.pongTimer);
      this.pongTimer = null;
    }
    switch (frame.type) {
      case 'event':
        for (const listener of [...(this.listeners.get(frame.flowId) ?? [])]) listener.onEvent(frame);
        return;
      case 'subscribed':
        for (const listener of [...(this.listeners.get(frame.flowId) ?? [])]) listener.onSubscribed?.(frame.version);
        return;
      case 'error':
        if (frame.flowId) for (const listener of [...(this.listeners.get(frame.flowId) ?? [])]) listener.onError?.(frame.error);
        return;
      default:
        return;
    }
  }

  /** In a browser: reconnect at once when the network returns or the tab becomes visible. */
  private watchWindow(): () => void {
    if (typeof window === 'undefined' || typeof document === 'undefined') return () => {};
    const now = () => this.reconnectNow();
    const visible = () => {
      if (document.visibilityState === 'visible') this.reconnectNow();
    };
    window.addEventListener('online', now);
    document.addEventListener('visibilitychange', visible);
    return () => {
      window.removeEventListener('online', now);
      document.removeEventListener('visibilitychange', visible);
    };
  }
}

/** The socket URL of the page's own origin: ws://host/api/ws, or wss:// under https. */
export function socketUrlFor(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}/api/ws`;
}
