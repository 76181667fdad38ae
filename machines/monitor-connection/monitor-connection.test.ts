import { createActor, fromCallback, SimulatedClock, type EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import { canAccept } from '../protocol/can-accept.js';
import { monitorClientFrameSchema, monitorServerFrameSchema, type MonitorConnectionEvent } from '../protocol/monitor.js';
import { monitorConnectionMachine, monitorStatusText, monitorTexts } from './monitor-connection.machine.js';

/** A fake socket: each open is recorded with the way to talk back and whether it was closed. */
function start(options: { failToInit?: boolean } = {}) {
  const clock = new SimulatedClock();
  const sockets: { sendBack: (event: MonitorConnectionEvent) => void; closed: boolean }[] = [];
  const machine = monitorConnectionMachine.provide({
    actors: {
      socket: fromCallback<EventObject>(({ sendBack }) => {
        if (options.failToInit) throw new Error('no WebSocket');
        const socket = { sendBack, closed: false };
        sockets.push(socket);
        return () => {
          socket.closed = true;
          // A real socket fires onclose after close(); the machine must ignore it.
          sendBack({ type: 'SOCKET_CLOSED' });
        };
      }),
    },
  });
  const actor = createActor(machine, { clock }).start();
  const last = () => sockets[sockets.length - 1]!;
  return { actor, clock, sockets, last, machine };
}

describe('monitorConnection', () => {
  it('connects: disconnected -> connecting -> connected', () => {
    const { actor, last } = start();
    expect(monitorStatusText(actor.getSnapshot())).toBe('Disconnected from monitor');
    actor.send({ type: 'CONNECT' });
    expect(monitorStatusText(actor.getSnapshot())).toBe('Connecting to Slack...');
    last().sendBack({ type: 'SOCKET_OPENED' });
    expect(actor.getSnapshot().value).toEqual({ online: 'connected' });
    expect(monitorStatusText(actor.getSnapshot())).toBe('Connected to Slack');
  });

  it('says in one sentence that it is connected to the monitor but Slack events are not configured, never Connected to Slack', () => {
    const { actor, last } = start();
    actor.send({ type: 'CONNECT' });
    last().sendBack({ type: 'SOCKET_OPENED' });
    const text = monitorStatusText(actor.getSnapshot(), false);
    expect(text).toBe(monitorTexts.connectedNotConfigured);
    expect(text).not.toContain('Connected to Slack');
    expect(text.match(/[.!?](\s|$)/g)).toHaveLength(1);
  });

  it('reconnects exactly 3 s after an unexpected close', () => {
    const { actor, clock, sockets, last } = start();
    actor.send({ type: 'CONNECT' });
    last().sendBack({ type: 'SOCKET_OPENED' });
    last().sendBack({ type: 'SOCKET_CLOSED' });
    expect(actor.getSnapshot().value).toBe('reconnecting');
    expect(monitorStatusText(actor.getSnapshot())).toBe(monitorTexts.disconnected);
    clock.increment(2999);
    expect(sockets).toHaveLength(1);
    clock.increment(1);
    expect(actor.getSnapshot().value).toEqual({ online: 'connecting' });
    expect(sockets).toHaveLength(2);
  });

  it('stays disconnected after a manual Disconnect, even though the socket reports its close', () => {
    const { actor, clock, sockets, last } = start();
    actor.send({ type: 'CONNECT' });
    last().sendBack({ type: 'SOCKET_OPENED' });
    actor.send({ type: 'DISCONNECT' });
    expect(last().closed).toBe(true);
    expect(actor.getSnapshot().value).toBe('disconnected');
    clock.increment(60_000);
    expect(actor.getSnapshot().value).toBe('disconnected');
    expect(sockets).toHaveLength(1);
  });

  it('cancels a pending reconnect on Disconnect', () => {
    const { actor, clock, sockets, last } = start();
    actor.send({ type: 'CONNECT' });
    last().sendBack({ type: 'SOCKET_CLOSED' });
    actor.send({ type: 'DISCONNECT' });
    clock.increment(10_000);
    expect(actor.getSnapshot().value).toBe('disconnected');
    expect(sockets).toHaveLength(1);
  });

  it('keeps the socket error for the Connection Error toast', () => {
    const { actor, last } = start();
    actor.send({ type: 'CONNECT' });
    last().sendBack({ type: 'SOCKET_ERROR', message: '' });
    expect(actor.getSnapshot().context.error).toBe('Failed to connect to Slack monitor');
    last().sendBack({ type: 'SOCKET_OPENED' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('reports an init failure and retries after 3 s', () => {
    const { actor, clock } = start({ failToInit: true });
    actor.send({ type: 'CONNECT' });
    expect(actor.getSnapshot().value).toBe('reconnecting');
    expect(actor.getSnapshot().context.error).toBe('Failed to initialize Slack monitor');
    clock.increment(3000);
    expect(actor.getSnapshot().value).toBe('reconnecting');
  });

  it('ignores socket events while disconnected', () => {
    const { actor, machine } = start();
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SOCKET_OPENED' })).toBe(false);
    expect(canAccept(machine, actor.getSnapshot(), { type: 'DISCONNECT' })).toBe(false);
  });

  it('validates the monitor socket frames', () => {
    expect(monitorClientFrameSchema.safeParse({ type: 'get_status' }).success).toBe(true);
    expect(
      monitorServerFrameSchema.safeParse({
        type: 'status',
        status: 'listening',
        stats: { totalMessages: 3, assessmentsProcessed: 1, messagesGrouped: 2 },
        activeAssessments: 0,
      }).success,
    ).toBe(true);
    expect(
      monitorServerFrameSchema.safeParse({
        type: 'slack_message',
        data: { channel: 'C1', bot_id: 'B1', user: null, text: 'hi', timestamp: 1_700_000_000.1234 },
      }).success,
    ).toBe(true);
    expect(monitorServerFrameSchema.safeParse({ type: 'assessment_processed', data: {} }).success).toBe(false);
  });
});
