import { assign, createActor, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { canAccept } from '../protocol/can-accept.js';
import { mirrorEventSchema, mirrorReplyRequestSchema, type MirrorReplyRequest } from '../protocol/mirror.js';
import { MIRROR_FALLBACK_REPLY, MIRROR_WELCOME, mirrorMachine } from './mirror.machine.js';

const SESSION_ID = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';

function start(options: { replyDelay?: number } = {}) {
  const clock = new SimulatedClock();
  const requests: MirrorReplyRequest[] = [];
  let generated = 0;
  const machine = mirrorMachine.provide({
    actions: {
      assignSessionId: assign({
        sessionId: () => {
          generated += 1;
          return SESSION_ID;
        },
      }),
      requestReply: (_, request) => {
        requests.push(request);
      },
    },
    ...(options.replyDelay === undefined ? {} : { delays: { replyDelay: options.replyDelay } }),
  });
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, requests, machine, generatedIds: () => generated };
}

type Started = ReturnType<typeof start>;

function exchange({ actor, clock }: Started, text: string, isComplete = false) {
  actor.send({ type: 'SEND', text });
  actor.send({ type: 'REPLY_RECEIVED', response: `reply to ${text}`, isComplete });
  clock.increment(1500);
}

describe('mirror', () => {
  it('opens with the welcome message at turn 0', () => {
    const { actor } = start();
    expect(actor.getSnapshot().context).toMatchObject({
      turn: 0,
      sessionId: null,
      messages: [{ role: 'mirror', content: MIRROR_WELCOME }],
    });
  });

  it('trims the input, makes the session id once, and asks for a reply with the history', () => {
    const started = start();
    const { actor, requests } = started;
    actor.send({ type: 'SEND', text: '  Whether to restructure my team.  ' });
    expect(actor.getSnapshot().value).toBe('awaitingReply');
    expect(requests).toEqual([
      {
        sessionId: SESSION_ID,
        conversationHistory: [
          { role: 'mirror', content: MIRROR_WELCOME },
          { role: 'user', content: 'Whether to restructure my team.' },
        ],
        turn: 1,
        save: false,
      },
    ]);
    expect(mirrorReplyRequestSchema.safeParse(requests[0]).success).toBe(true);
    actor.send({ type: 'REPLY_RECEIVED', response: 'What scares you about it?', isComplete: false });
    started.clock.increment(1500);
    exchange(started, 'second');
    expect(started.generatedIds()).toBe(1);
    expect(requests[1]?.turn).toBe(2);
  });

  it('blocks sending on blank input, while a reply is pending and while it is shown', () => {
    const { actor, machine, clock } = start();
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SEND', text: ' \n\t ' })).toBe(false);
    actor.send({ type: 'SEND', text: 'first' });
    const pending = actor.getSnapshot();
    expect(canAccept(machine, pending, { type: 'SEND', text: 'again' })).toBe(false);
    actor.send({ type: 'SEND', text: 'again' });
    expect(actor.getSnapshot().context.messages).toHaveLength(2);
    actor.send({ type: 'REPLY_RECEIVED', response: 'ok', isComplete: false });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SEND', text: 'again' })).toBe(false);
    clock.increment(1500);
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SEND', text: 'again' })).toBe(true);
  });

  it('shows a reply after 1.5 s and counts the exchange', () => {
    const { actor, clock } = start();
    actor.send({ type: 'SEND', text: 'hello' });
    actor.send({ type: 'REPLY_RECEIVED', response: 'Why now?', isComplete: false });
    clock.increment(1499);
    expect(actor.getSnapshot()).toMatchObject({ value: 'revealing', context: { turn: 0 } });
    clock.increment(1);
    expect(actor.getSnapshot()).toMatchObject({ value: 'chatting', context: { turn: 1 } });
    expect(actor.getSnapshot().context.messages.at(-1)).toEqual({ role: 'mirror', content: 'Why now?' });
  });

  it('shows the fallback after 1 s when the reply fails', () => {
    const { actor, clock } = start();
    actor.send({ type: 'SEND', text: 'hello' });
    actor.send({ type: 'REPLY_FAILED' });
    clock.increment(999);
    expect(actor.getSnapshot().value).toBe('revealing');
    clock.increment(1);
    expect(actor.getSnapshot().context.messages.at(-1)).toEqual({ role: 'mirror', content: MIRROR_FALLBACK_REPLY });
  });

  it('completes when the reply says so', () => {
    const started = start();
    exchange(started, 'one');
    exchange(started, 'two', true);
    expect(started.actor.getSnapshot()).toMatchObject({ status: 'done', value: 'complete', context: { turn: 2 } });
    expect(canAccept(started.machine, started.actor.getSnapshot(), { type: 'SEND', text: 'more' })).toBe(false);
  });

  it('completes after the fifth exchange even if the reply does not say so', () => {
    const started = start();
    for (const text of ['1', '2', '3', '4']) exchange(started, text);
    expect(started.actor.getSnapshot()).toMatchObject({ value: 'chatting', context: { turn: 4 } });
    exchange(started, '5');
    expect(started.actor.getSnapshot()).toMatchObject({ value: 'complete', context: { turn: 5 } });
    expect(started.actor.getSnapshot().output?.messages).toHaveLength(11);
  });

  it('passes the save choice to the reply request', () => {
    const { actor, requests } = start();
    actor.send({ type: 'SET_SAVE', save: true });
    actor.send({ type: 'SEND', text: 'hi' });
    expect(requests[0]?.save).toBe(true);
  });

  it('uses the provided delay in the modal variant', () => {
    const { actor, clock } = start({ replyDelay: 1000 });
    actor.send({ type: 'SEND', text: 'hi' });
    actor.send({ type: 'REPLY_RECEIVED', response: 'ok', isComplete: false });
    clock.increment(1000);
    expect(actor.getSnapshot().value).toBe('chatting');
  });

  it('ignores replies nobody asked for', () => {
    const { actor, machine } = start();
    expect(canAccept(machine, actor.getSnapshot(), { type: 'REPLY_FAILED' })).toBe(false);
  });

  it('validates events at the edge', () => {
    expect(mirrorEventSchema.safeParse({ type: 'SEND', text: 'x'.repeat(4001) }).success).toBe(false);
    expect(mirrorEventSchema.safeParse({ type: 'REPLY_RECEIVED', response: 'ok', isComplete: true }).success).toBe(true);
  });
});
