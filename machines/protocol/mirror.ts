import { z } from 'zod';
import { mirrorTurnSchema } from './common.js';

/** Exchanges in one Mirror conversation. */
export const MIRROR_TURN_LIMIT = 5;

/** What the visitor does in the Mirror chat. */
export const mirrorClientEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('SEND'), text: z.string().max(4000) }),
  z.object({ type: z.literal('SET_SAVE'), save: z.boolean() }),
]);

/** How the reply effect reports back: the reply, or that none could be had. */
const mirrorReplyEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('REPLY_RECEIVED'), response: z.string().min(1).max(4000), isComplete: z.boolean() }),
  z.object({ type: z.literal('REPLY_FAILED') }),
]);

/** Every event the Mirror machine accepts. */
export const mirrorEventSchema = z.discriminatedUnion('type', [...mirrorClientEventSchema.options, ...mirrorReplyEventSchema.options]);
/** An event of the Mirror machine. */
export type MirrorEvent = z.infer<typeof mirrorEventSchema>;

/** The mirror-llm-response body, plus the session to store turns under when saving. */
export const mirrorReplyRequestSchema = z.object({
  sessionId: z.uuid(),
  conversationHistory: z
    .array(mirrorTurnSchema)
    .min(1)
    .max(2 * MIRROR_TURN_LIMIT + 1),
  turn: z.number().int().min(1).max(MIRROR_TURN_LIMIT),
  save: z.boolean(),
});
/** A request for the Mirror's next reply. */
export type MirrorReplyRequest = z.infer<typeof mirrorReplyRequestSchema>;

/** The mirror-llm-response answer. */
export const mirrorReplyResponseSchema = z.object({
  response: z.string().min(1).max(4000),
  isComplete: z.boolean(),
});
/** The Mirror's reply. */
export type MirrorReplyResponse = z.infer<typeof mirrorReplyResponseSchema>;
