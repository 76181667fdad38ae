import WebSocket from 'ws';
import { frameText } from '#server/sockets/frames.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import type { SeededFlow } from '../bench/seed.js';
import { addressOf } from './journeys.js';

/** One visitor's live socket as the site's client keeps it: subscribed to its flow, reconnecting whenever it closes. */
interface Watcher {
  socket: WebSocket | null;
  subscribed: boolean;
  connects: number;
  pushes: number;
}

/**
 * Sockets held open by visitors through every fault, each subscribed to its own flow, reconnecting
 * (and subscribing again) a moment after it closes, as the browser's client does. Through the proxy
 * each lands on any server, so the pushes it receives were mostly applied by another process and
 * crossed through Redis.
 */
export function watchFlows(base: string, flows: SeededFlow[], firstVisitor: number) {
  let closing = false;
  const watchers: Watcher[] = flows.map(() => ({ socket: null, subscribed: false, connects: 0, pushes: 0 }));
  const connect = (watcher: Watcher, flow: SeededFlow, index: number) => {
    if (closing) return;
    const headers = { cookie: `${VISITOR_COOKIE}=${flow.visitorCookie}`, 'x-forwarded-for': addressOf(firstVisitor + index) };
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, { headers });
    watcher.socket = socket;
    watcher.subscribed = false;
    socket.on('open', () => {
      watcher.connects += 1;
      socket.send(JSON.stringify({ type: 'subscribe', flowId: flow.flowId }));
    });
    socket.on('message', (raw) => {
      const frame = JSON.parse(frameText(raw)) as { type: string };
      if (frame.type === 'subscribed') watcher.subscribed = true;
      if (frame.type === 'event') watcher.pushes += 1;
      // a subscribe that failed (the database restarting) is sent again, as the client does
      if (frame.type === 'error') setTimeout(() => socket.send(JSON.stringify({ type: 'subscribe', flowId: flow.flowId })), 500);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      watcher.subscribed = false;
      setTimeout(() => connect(watcher, flow, index), 250);
    });
  };
  flows.forEach((flow, index) => connect(watchers[index]!, flow, index));
  return {
    /** True once every socket is open and subscribed again. */
    allSubscribed: () => watchers.every((watcher) => watcher.subscribed),
    report: () => ({
      sockets: watchers.length,
      subscribed: watchers.filter((watcher) => watcher.subscribed).length,
      reconnects: watchers.reduce((sum, watcher) => sum + Math.max(0, watcher.connects - 1), 0),
      pushes: watchers.reduce((sum, watcher) => sum + watcher.pushes, 0),
      withPushes: watchers.filter((watcher) => watcher.pushes > 0).length,
    }),
    close: () => {
      closing = true;
      for (const watcher of watchers) watcher.socket?.terminate();
    },
  };
}
