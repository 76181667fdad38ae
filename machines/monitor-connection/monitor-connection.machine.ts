import { assign, fromCallback, setup, type EventObject, type SnapshotFrom } from 'xstate';
import type { MonitorConnectionEvent } from '../protocol/monitor.js';

/** The monitor's status line and connection errors, word for word from the product copy. */
export const monitorTexts = {
  connected: 'Connected to Slack',
  /** Connected to the monitor while the server cannot receive Slack's events: one sentence, not 'Connected to Slack' beside a warning. */
  connectedNotConfigured:
    "Connected to the monitor, but Slack events are not configured: set SLACK_SIGNING_SECRET (the README's Slack section shows how).",
  connecting: 'Connecting to Slack...',
  disconnected: 'Disconnected from monitor',
  socketError: 'Failed to connect to Slack monitor',
  initError: 'Failed to initialize Slack monitor',
} as const;

/** What the monitor connection holds: the last connection error, for the 'Connection Error' toast. */
export interface MonitorConnectionContext {
  error: string | null;
}

/**
 * The team-chat monitor's websocket: disconnected -> connecting -> connected,
 * reconnecting 3 s after an unexpected close. The web provides `socket`, a callback actor that
 * opens the socket, reports SOCKET_OPENED / SOCKET_CLOSED / SOCKET_ERROR and closes it in its
 * cleanup. Because the socket lives only inside `online`, a manual Disconnect stops the actor
 * before its close handler can report anything: the seed's reconnect-after-manual-close cannot
 * happen.
 */
export const monitorConnectionMachine = setup({
  types: {
    context: {} as MonitorConnectionContext,
    events: {} as MonitorConnectionEvent,
  },
  actors: {
    socket: fromCallback<EventObject>(() => {}),
  },
  delays: {
    reconnect: 3000,
  },
}).createMachine({
  id: 'monitorConnection',
  context: { error: null },
  initial: 'disconnected',
  states: {
    disconnected: {
      on: { CONNECT: { target: 'online' } },
    },
    online: {
      invoke: {
        src: 'socket',
        onError: { target: 'reconnecting', actions: assign({ error: monitorTexts.initError }) },
      },
      initial: 'connecting',
      states: {
        connecting: {
          on: { SOCKET_OPENED: { target: 'connected', actions: assign({ error: null }) } },
        },
        connected: {},
      },
      on: {
        SOCKET_CLOSED: { target: 'reconnecting' },
        SOCKET_ERROR: { actions: assign({ error: ({ event }) => event.message || monitorTexts.socketError }) },
        DISCONNECT: { target: 'disconnected' },
      },
    },
    reconnecting: {
      after: { reconnect: { target: 'online' } },
      on: {
        CONNECT: { target: 'online' },
        DISCONNECT: { target: 'disconnected' },
      },
    },
  },
});

/** The status line for a connection snapshot; waiting to reconnect reads as disconnected. */
export function monitorStatusText(snapshot: SnapshotFrom<typeof monitorConnectionMachine>, slackConfigured = true): string {
  if (snapshot.matches({ online: 'connected' })) return slackConfigured ? monitorTexts.connected : monitorTexts.connectedNotConfigured;
  if (snapshot.matches({ online: 'connecting' })) return monitorTexts.connecting;
  return monitorTexts.disconnected;
}
