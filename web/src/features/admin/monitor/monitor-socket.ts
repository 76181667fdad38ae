import { fromCallback, type EventObject } from 'xstate';
import { monitorTexts } from '#machines/monitor-connection/monitor-connection.machine.js';
import { monitorServerFrameSchema, type MonitorServerFrame } from '#machines/protocol/monitor.js';

/** What the monitor page hears from its socket besides the connection's own events. */
export interface MonitorSocketHandlers {
  onFrame: (frame: MonitorServerFrame) => void;
  /** The socket closed; `opened` is false when the handshake itself was refused or failed. */
  onClosed: (code: number, opened: boolean) => void;
}

/** The monitor socket's address on the page's own origin (ws, or wss under https). */
function monitorSocketUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}/api/functions/slack-monitor`;
}

/**
 * The `socket` actor of the monitor connection machine: opens the socket, asks for the status on
 * open, hands every valid frame to the page and reports the connection's events to
 * the machine. Its cleanup detaches the handlers before closing, so a manual Disconnect is never
 * reported back as a close to reconnect from.
 */
export function monitorSocketActor(handlers: MonitorSocketHandlers) {
  return fromCallback<EventObject>(({ sendBack }) => {
    // a throw here (e.g. a refused URL) is the machine's init failure
    const socket = new WebSocket(monitorSocketUrl(window.location.origin));
    let opened = false;
    socket.onopen = () => {
      opened = true;
      sendBack({ type: 'SOCKET_OPENED' });
      socket.send(JSON.stringify({ type: 'get_status' }));
    };
    socket.onmessage = (message) => {
      let frame: MonitorServerFrame;
      try {
        frame = monitorServerFrameSchema.parse(JSON.parse(String(message.data)));
      } catch (error) {
        // Unparseable messages are only logged
        console.warn('Ignoring an unreadable monitor message', error);
        return;
      }
      handlers.onFrame(frame);
    };
    socket.onerror = () => sendBack({ type: 'SOCKET_ERROR', message: monitorTexts.socketError });
    socket.onclose = (event) => {
      handlers.onClosed(event.code, opened);
      sendBack({ type: 'SOCKET_CLOSED' });
    };
    return () => {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      socket.close(1000, 'Disconnected');
    };
  });
}
