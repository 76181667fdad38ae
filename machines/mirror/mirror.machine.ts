import { and, assign, setup } from 'xstate';
import { hasText, type MirrorTurn } from '../protocol/common.js';
import { randomUuid } from '../random-id.js';
import { MIRROR_TURN_LIMIT, type MirrorEvent } from '../protocol/mirror.js';
import { mirrorEffects } from './mirror.effects.js';

/** The Mirror's opening message: a difficult decision in the visitor's current role. */
export const MIRROR_WELCOME =
  "Welcome to The Mirror. Think of a difficult decision you're facing in your current role right now. What is it, and what makes it hard?";

/** The Mirror's answer when no reply could be had. */
export const MIRROR_FALLBACK_REPLY = "I'm having trouble processing that right now. Can you tell me more about what's on your mind?";

/** What one Mirror conversation holds. */
export interface MirrorContext {
  /** Generated at the first send. */
  sessionId: string | null;
  /** Completed exchanges, 0 to 5. */
  turn: number;
  messages: MirrorTurn[];
  /** 'Save this session (optional)'. */
  save: boolean;
  /** A reply waiting out its display delay. */
  pendingReply: { content: string; isComplete: boolean; fallback: boolean } | null;
}

/** A finished conversation: what the assessment flow's MIRROR_COMPLETED carries. */
export interface MirrorOutput {
  sessionId: string | null;
  messages: MirrorTurn[];
}

/**
 * The Mirror chat demo: turns 0 to 5; sending is blocked while a reply is
 * pending, on blank input and once complete; input is trimmed; a session id is made at the first
 * send; the chat completes when the reply says so or after the fifth exchange. Replies show after
 * 1.5 s (1 s for the fallback).
 *
 * Effects are actions and replies are events, so the server can run this machine with XState's
 * pure transition functions too. Provide `requestReply` (it must answer with REPLY_RECEIVED or
 * REPLY_FAILED) and `assignSessionId` (the id generator; the default works in every browser
 * context, plain http included, and in Node). The modal variant provides `replyDelay` of 1 s.
 */
export const mirrorMachine = setup({
  types: {
    context: {} as MirrorContext,
    events: {} as MirrorEvent,
    output: {} as MirrorOutput,
  },
  actions: {
    assignSessionId: assign({ sessionId: () => randomUuid() }),
    ...mirrorEffects,
    appendUserTurn: assign({
      messages: ({ context, event }) =>
        event.type === 'SEND' ? [...context.messages, { role: 'user', content: event.text.trim() }] : context.messages,
    }),
    revealReply: assign(({ context }) => ({
      messages: context.pendingReply
        ? [...context.messages, { role: 'mirror' as const, content: context.pendingReply.content }]
        : context.messages,
      turn: context.turn + 1,
      pendingReply: null,
    })),
  },
  guards: {
    hasText: ({ event }) => event.type === 'SEND' && hasText(event.text),
    needsSessionId: ({ context }) => context.sessionId === null,
    endsConversation: ({ context }) => Boolean(context.pendingReply?.isComplete) || context.turn + 1 >= MIRROR_TURN_LIMIT,
  },
  delays: {
    replyDelay: ({ context }) => (context.pendingReply?.fallback ? 1000 : 1500),
  },
}).createMachine({
  id: 'mirror',
  context: {
    sessionId: null,
    turn: 0,
    messages: [{ role: 'mirror', content: MIRROR_WELCOME }],
    save: false,
    pendingReply: null,
  },
  initial: 'chatting',
  on: {
    SET_SAVE: { actions: assign({ save: ({ event }) => event.save }) },
  },
  states: {
    chatting: {
      on: {
        SEND: [
          {
            guard: and(['hasText', 'needsSessionId']),
            target: 'awaitingReply',
            actions: ['assignSessionId', 'appendUserTurn'],
          },
          { guard: 'hasText', target: 'awaitingReply', actions: 'appendUserTurn' },
        ],
      },
    },
    awaitingReply: {
      entry: {
        type: 'requestReply',
        params: ({ context }) => ({
          // SEND assigns the id before entering; the fallback only satisfies types.
          sessionId: context.sessionId ?? '',
          conversationHistory: context.messages,
          turn: context.turn + 1,
          save: context.save,
        }),
      },
      on: {
        REPLY_RECEIVED: {
          target: 'revealing',
          actions: assign({
            pendingReply: ({ event }) => ({ content: event.response, isComplete: event.isComplete, fallback: false }),
          }),
        },
        REPLY_FAILED: {
          target: 'revealing',
          actions: assign({ pendingReply: { content: MIRROR_FALLBACK_REPLY, isComplete: false, fallback: true } }),
        },
      },
    },
    revealing: {
      after: {
        replyDelay: [
          { guard: 'endsConversation', target: 'complete', actions: 'revealReply' },
          { target: 'chatting', actions: 'revealReply' },
        ],
      },
    },
    complete: { type: 'final' },
  },
  output: ({ context }) => ({ sessionId: context.sessionId, messages: context.messages }),
});
