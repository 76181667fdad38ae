import type pg from 'pg';
import { z } from 'zod';
import { MIRROR_FALLBACK_REPLY } from '#machines/mirror/mirror.machine.js';
import { mirrorReplyRequestSchema, type MirrorReplyRequest } from '#machines/protocol/mirror.js';
import { mirrorConversationOf } from '#machines/protocol/snapshots.js';
import type { Config } from '#core/config/index.js';
import type { FlowEngine } from '#core/flows/engine.js';
import { failureOf, mirrorReplierFor, type MirrorReplier } from '#core/mirror/engine.js';
import { recordExchange } from '#core/mirror/store.js';
import type { ProcessorContext, QueueProcessor } from './processor.js';

const payloadSchema = z.object({ flowId: z.uuid(), request: mirrorReplyRequestSchema });

type ReplyEvent = { type: 'REPLY_RECEIVED'; response: string; isComplete: boolean } | { type: 'REPLY_FAILED' };

/**
 * Locks the flow when it still waits for this very reply: the same session, the exchange before
 * this one completed. A retry whose first run committed, or one that arrives after the visitor
 * has sent the next message, finds no row and changes nothing. Returns the flow's lead.
 */
async function lockAwaitingFlow(client: pg.ClientBase, flowId: string, request: MirrorReplyRequest) {
  const found = await client.query<{ lead_id: string | null; visitor_id: string | null; snapshot: unknown }>(
    "SELECT lead_id, visitor_id, snapshot FROM flows WHERE id = $1 AND machine = 'mirror' AND state = 'awaitingReply' FOR UPDATE",
    [flowId],
  );
  const flow = found.rows[0];
  const conversation = flow && mirrorConversationOf(flow.snapshot);
  return conversation?.sessionId === request.sessionId && conversation.turn === request.turn - 1 ? flow : null;
}

/** Applies the reply (or its failure) to the flow and records the exchange, in one transaction. */
async function deliver(engine: FlowEngine, flowId: string, request: MirrorReplyRequest, event: ReplyEvent, log: ProcessorContext['log']) {
  return engine.transaction(async (tx) => {
    const flow = await lockAwaitingFlow(tx.client, flowId, request);
    const applied = flow && (await tx.applyIfAllowed(flowId, event, 'worker'));
    if (!flow || !applied) return { skipped: `the flow no longer waits for reply ${request.turn}` };
    await recordExchange(
      tx.client,
      {
        sessionId: request.sessionId,
        flowId,
        leadId: flow.lead_id,
        visitorId: flow.visitor_id,
        turn: request.turn,
        isComplete: event.type === 'REPLY_RECEIVED' && event.isComplete,
        save: request.save,
        userMessage: request.conversationHistory.findLast((t) => t.role === 'user')?.content ?? null,
        // what the machine shows for a failure
        reply: event.type === 'REPLY_RECEIVED' ? event.response : MIRROR_FALLBACK_REPLY,
      },
      log,
    );
    return { applied: event.type, state: applied.state };
  });
}

/**
 * The 'mirror' queue: the Mirror's next reply for a flow waiting in awaitingReply. The engine's
 * answer becomes REPLY_RECEIVED; an engine failure becomes REPLY_FAILED, which shows the spec's
 * fallback line, rather than a retry the visitor would sit through. Only database failures throw
 * (and are retried); when retries are spent the flow still gets REPLY_FAILED.
 * `llmTimeoutMs` lets tests shorten the LLM deadline.
 */
export function createMirrorProcessor(options: { llmTimeoutMs?: number } = {}): QueueProcessor {
  const repliers = new WeakMap<Config, MirrorReplier>();
  const replierOf = (config: Config) => {
    let replier = repliers.get(config);
    if (!replier) {
      replier = mirrorReplierFor(config, options.llmTimeoutMs === undefined ? {} : { timeoutMs: options.llmTimeoutMs });
      repliers.set(config, replier);
    }
    return replier;
  };

  return {
    process: async (job, { engine, config, log }) => {
      const { flowId, request } = payloadSchema.parse(job.data.payload);
      let event: ReplyEvent;
      try {
        const reply = await replierOf(config)(request.conversationHistory, request.turn);
        event = { type: 'REPLY_RECEIVED', ...reply };
      } catch (error) {
        log.warn({ flowId, ...failureOf(error) }, 'mirror reply failed; the flow shows the fallback');
        event = { type: 'REPLY_FAILED' };
      }
      return deliver(engine, flowId, request, event, log);
    },
    onExhausted: async (job, { engine, log }) => {
      const parsed = payloadSchema.safeParse(job.data.payload);
      if (parsed.success) await deliver(engine, parsed.data.flowId, parsed.data.request, { type: 'REPLY_FAILED' }, log);
    },
  };
}

/** The mirror queue's processor with the default (production) deadlines. */
export const mirrorProcessor = createMirrorProcessor();
