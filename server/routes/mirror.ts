import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MIRROR_FALLBACK_REPLY } from '#machines/mirror/mirror.machine.js';
import { MIRROR_TURN_LIMIT, mirrorReplyResponseSchema, type MirrorReplyResponse } from '#machines/protocol/mirror.js';
import { failureOf, mirrorReplierFor } from '#core/mirror/engine.js';
import { storeExchange } from '#core/mirror/store.js';
import { rateLimits } from '../plugins/security.js';
import { notFound } from '../visitors/owned.js';
import type { RouteDeps } from './deps.js';

const turnSchema = z.object({
  role: z.enum(['user', 'mirror']),
  content: z.string().trim().min(1, 'must not be blank').max(4000),
});

/** The product's mirror-llm-response body, plus the session to store the exchange under. */
const bodySchema = z
  .object({
    conversationHistory: z
      .array(turnSchema)
      .min(1)
      // the welcome and five exchanges
      .max(2 * MIRROR_TURN_LIMIT + 1)
      .refine((turns) => turns.some((t) => t.role === 'user'), 'must include a message from the user'),
    turn: z.number().int().min(1).max(MIRROR_TURN_LIMIT),
    sessionId: z.uuid().optional(),
    save: z.boolean().default(false),
  })
  .refine((body) => !body.save || body.sessionId, { path: ['sessionId'], message: 'is required when save is true' });

/** True when the session is new, or this visitor's own session outside any flow. */
async function mayRecordSession(deps: RouteDeps, sessionId: string, visitorId: string | null): Promise<boolean> {
  const found = await deps.pool.query<{ visitor_id: string | null; flow_id: string | null }>(
    'SELECT visitor_id, flow_id FROM mirror_sessions WHERE id = $1',
    [sessionId],
  );
  const session = found.rows[0];
  return !session || (session.flow_id === null && session.visitor_id !== null && session.visitor_id === visitorId);
}

/**
 * POST /api/functions/mirror-llm-response: the Mirror's reply to a conversation outside a flow.
 * A failed reply still answers 200, with the product's fallback line. With a sessionId the session
 * is recorded as this visitor's (the visitor cookie is issued if need be); with save as well, the
 * exchange's messages too. Another visitor's session id is not found (404), and nothing is stored.
 */
export function mirrorRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const replier = mirrorReplierFor(deps.config);

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/functions/mirror-llm-response',
    {
      config: { rateLimit: rateLimits.mirror },
      schema: {
        summary: "mirror-llm-response: the Mirror's reflective reply to the conversation so far",
        tags: ['functions'],
        body: bodySchema,
        response: { 200: mirrorReplyResponseSchema },
      },
    },
    async (request, httpReply) => {
      const { conversationHistory, turn, sessionId, save } = request.body;
      // a session id someone else's browser made is theirs: refused before anything is stored
      if (sessionId && !(await mayRecordSession(deps, sessionId, request.visitorId))) throw notFound('Mirror session');
      const visitorId = sessionId ? await deps.visitors.ensure(request, httpReply) : null;
      let reply: MirrorReplyResponse;
      try {
        reply = await replier(conversationHistory, turn);
      } catch (error) {
        request.log.warn(failureOf(error), 'mirror reply failed; answering with the fallback');
        reply = { response: MIRROR_FALLBACK_REPLY, isComplete: false };
      }
      if (sessionId) {
        await storeExchange(
          deps.pool,
          {
            sessionId,
            flowId: null,
            leadId: null,
            visitorId,
            turn,
            isComplete: reply.isComplete,
            save,
            userMessage: conversationHistory.findLast((t) => t.role === 'user')?.content ?? null,
            reply: reply.response,
          },
          request.log,
        );
      }
      return reply;
    },
  );
  done();
}
