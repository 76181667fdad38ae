import { post } from '../../lib/api.js';
import { mirrorMachine } from '#machines/mirror/mirror.machine.js';
import type { MirrorReplyRequest } from '#machines/protocol/mirror.js';

/** The mirror-llm-response answer. */
interface MirrorReply {
  response: string;
  isComplete: boolean;
}

/**
 * The standalone Mirror: the shared machine (turns, blocking, session id, 1.5 s / 1 s reveal)
 * with its reply fetched from mirror-llm-response. Any failure becomes REPLY_FAILED, which the
 * machine answers with the product's fallback line.
 */
export const standaloneMirror = mirrorMachine.provide({
  actions: {
    requestReply: ({ self }, request: MirrorReplyRequest) => {
      post<MirrorReply>('/api/functions/mirror-llm-response', request)
        .then((reply) => {
          if (typeof reply?.response === 'string' && reply.response.trim()) {
            self.send({ type: 'REPLY_RECEIVED', response: reply.response, isComplete: Boolean(reply.isComplete) });
          } else self.send({ type: 'REPLY_FAILED' });
        })
        .catch(() => self.send({ type: 'REPLY_FAILED' }));
    },
  },
});
