import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlowSocket, socketUrlFor, type SocketLike } from './socket.js';

const FLOW = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const OTHER = '4a5b3f1c-2b4a-4d6e-8f70-0c1d2e3f4a5b';

class ManualSocket implements SocketLike {
  readyState = 0;
  sent: Array<{ type: string; flowId?: string }> = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
}

let sockets: ManualSocket[];
let flowSocket: FlowSocket;

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  flowSocket = new FlowSocket({
    url: 'ws://test/api/ws',
    createSocket: () => {
      const socket = new ManualSocket();
      sockets.push(socket);
      return socket;
    },
    pingMs: 1000,
    pongTimeoutMs: 500,
    backoff: { baseMs: 100, maxMs: 1000, random: () => 1 },
  });
});

afterEach(() => {
  flowSocket.close();
  vi.useRealTimers();
});

describe('FlowSocket', () => {
  it('connects on the first subscription and subscribes every flow once open', () => {
    expect(sockets).toHaveLength(0);
    flowSocket.subscribe(FLOW, { onEvent: () => {} });
    flowSocket.subscribe(OTHER, { onEvent: () => {} });
    expect(sockets).toHaveLength(1);
    expect(flowSocket.status).toBe('connecting');
    sockets[0]!.open();
    expect(flowSocket.status).toBe('open');
    expect(sockets[0]!.sent).toEqual([
      { type: 'subscribe', flowId: FLOW },
      { type: 'subscribe', flowId: OTHER },
    ]);
  });

  it('hands pushes and subscribed versions to the flow they name, and skips frames it cannot read', () => {
    const events: number[] = [];
    const subscribed: number[] = [];
    flowSocket.subscribe(FLOW, { onEvent: (frame) => events.push(frame.version), onSubscribed: (v) => subscribed.push(v) });
    sockets[0]!.open();
    const push = {
      type: 'event',
      flowId: FLOW,
      version: 3,
      origin: 'worker',
      event: { type: 'GRADED' },
      state: 'results',
      snapshot: {},
    };
    sockets[0]!.receive({ type: 'subscribed', flowId: FLOW, version: 2 });
    sockets[0]!.receive(push);
    sockets[0]!.receive({ ...push, flowId: OTHER, version: 9 });
    sockets[0]!.receive('not json');
    sockets[0]!.receive({ type: 'event', flowId: FLOW });
    expect(subscribed).toEqual([2]);
    expect(events).toEqual([3]);
  });

  it('reconnects with backoff after a drop and subscribes again', () => {
    flowSocket.subscribe(FLOW, { onEvent: () => {} });
    sockets[0]!.open();
    sockets[0]!.drop();
    expect(flowSocket.status).toBe('connecting');
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    // a failed attempt waits twice as long
    sockets[1]!.drop();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    sockets[2]!.open();
    expect(sockets[2]!.sent).toEqual([{ type: 'subscribe', flowId: FLOW }]);
    // and a success resets the wait
    sockets[2]!.drop();
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(4);
  });

  it('pings while open, and treats a missing pong as a dead connection', () => {
    flowSocket.subscribe(FLOW, { onEvent: () => {} });
    sockets[0]!.open();
    vi.advanceTimersByTime(1000);
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'ping' });
    sockets[0]!.receive({ type: 'pong' });
    vi.advanceTimersByTime(1000);
    expect(sockets[0]!.closed).toBe(false);
    vi.advanceTimersByTime(500);
    expect(sockets[0]!.closed).toBe(true);
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(2);
  });

  it('unsubscribes a flow nobody follows any more, and disconnects when none is left', () => {
    const stopA = flowSocket.subscribe(FLOW, { onEvent: () => {} });
    const stopB = flowSocket.subscribe(OTHER, { onEvent: () => {} });
    sockets[0]!.open();
    stopA();
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'unsubscribe', flowId: FLOW });
    stopB();
    expect(sockets[0]!.closed).toBe(true);
    expect(flowSocket.status).toBe('idle');
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(1);
  });

  it('builds the socket URL from the page origin', () => {
    expect(socketUrlFor('http://127.0.0.1:3000')).toBe('ws://127.0.0.1:3000/api/ws');
    expect(socketUrlFor('https://coach.example.com')).toBe('wss://coach.example.com/api/ws');
  });
});
