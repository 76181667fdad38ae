import { serverEffect } from '../effect.js';
import type { MirrorReplyRequest } from '../protocol/mirror.js';

/**
 * The Mirror's effects for its host: the server answers requestReply with a mirror job
 * (requestReply in core/flows/effects.ts); the standalone page provides its own, a named call.
 */
export const mirrorEffects = {
  requestReply: serverEffect<MirrorReplyRequest>(),
};
