import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import {
  ADMIN_LIVE_PATH,
  ADMIN_LIVE_SESSION_ENDED,
  adminLiveServerFrameSchema,
  type AdminLiveClientFrame,
  type AdminLiveFlowFrame,
  type AdminLiveJobFrame,
  type AdminLiveServerFrame,
} from '#machines/protocol/admin-live.js';
import { loadSession } from '../../lib/session.js';

/** How long after an unexpected close the socket tries again. */
const RECONNECT_MS = 3_000;
/** Keep-alive: proxies close sockets that stay silent (flow and job events can be minutes apart). */
const PING_MS = 25_000;

export interface AdminLiveHandlers {
  /** An event was applied to a flow. */
  onFlow?: (frame: AdminLiveFlowFrame) => void;
  /** A BullMQ job moved (waiting, active, completed, failed, ...). */
  onJob?: (frame: AdminLiveJobFrame) => void;
}

/** The live socket of the page's own origin: ws://host/api/admin/live, or wss:// under https. */
function adminLiveUrl(origin: string = window.location.origin): string {
  return `${origin.replace(/^http/, 'ws')}${ADMIN_LIVE_PATH}`;
}

/** A server frame, or null (warned about) for one that is not JSON or not in the protocol. */
function parseAdminLiveFrame(data: unknown): AdminLiveServerFrame | null {
  try {
    const parsed = adminLiveServerFrameSchema.safeParse(JSON.parse(String(data)));
    if (parsed.success) return parsed.data;
    console.warn('admin live: ignored a frame outside the protocol', parsed.error.issues[0]?.message);
  } catch {
    console.warn('admin live: ignored a frame that is not JSON');
  }
  return null;
}

/**
 * Follows the admin live socket (server/sockets/admin-live.ts) while mounted: calls onFlow and onJob
 * with each frame, reconnects 3 s after an unexpected close and closes on unmount. `live` is true
 * from the server's hello until the socket drops, so screens can poll only while it is down. When
 * the server ends the socket because the session ended, the shared session is read again (the
 * admin shell then sends the visitor to sign in) instead of reconnecting.
 */
export function useAdminLive(handlers: AdminLiveHandlers = {}): { live: boolean } {
  const onFlow = useEffectEvent((frame: AdminLiveFlowFrame) => handlers.onFlow?.(frame));
  const onJob = useEffectEvent((frame: AdminLiveJobFrame) => handlers.onJob?.(frame));
  const [live, setLive] = useState(false);

  useEffect(() => {
    let socket: WebSocket | null = null;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    let unmounted = false;
    const send = (frame: AdminLiveClientFrame) => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify(frame));

    const connect = () => {
      const current = new WebSocket(adminLiveUrl());
      socket = current;
      current.onopen = () => {
        ping = setInterval(() => send({ type: 'ping' }), PING_MS);
      };
      current.onmessage = (message) => {
        const frame = parseAdminLiveFrame(message.data);
        if (frame?.type === 'hello') setLive(true);
        else if (frame?.type === 'flow') onFlow(frame);
        else if (frame?.type === 'job') onJob(frame);
      };
      current.onclose = (event) => {
        clearInterval(ping);
        setLive(false);
        if (unmounted) return;
        if (event.code === ADMIN_LIVE_SESSION_ENDED) return void loadSession();
        reconnect = setTimeout(connect, RECONNECT_MS);
      };
    };
    connect();

    return () => {
      unmounted = true;
      clearTimeout(reconnect);
      clearInterval(ping);
      socket?.close(1000, 'left the screen');
    };
  }, []);

  return { live };
}

/** Coalesces calls of `callback`: a burst of calls runs it once, `ms` after the first (so a steady stream still runs it every `ms`). */
export function useCoalesced(callback: () => void, ms: number): () => void {
  // the latest callback, for a timer that fires after later renders
  const callbackRef = useRef(callback);
  useEffect(() => {
    callbackRef.current = callback;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      callbackRef.current();
    }, ms);
  }, [ms]);
}
