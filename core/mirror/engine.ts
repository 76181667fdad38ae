import { reflect } from '#machines/mirror/reflect.js';
import type { MirrorTurn } from '#machines/protocol/common.js';
import type { MirrorReplyResponse } from '#machines/protocol/mirror.js';
import type { Config } from '../config/index.js';
import { llmReplier } from './llm.js';

/** Answers a conversation at a turn (1-5) with the Mirror's next reply; throws when it cannot. */
export type MirrorReplier = (conversationHistory: readonly MirrorTurn[], turn: number) => Promise<MirrorReplyResponse>;

/** The built-in engine: deterministic reflective questions, no network (a throw still rejects, as from any replier). */
export const builtInReplier: MirrorReplier = (conversationHistory, turn) =>
  new Promise((resolve) => resolve(reflect(conversationHistory, turn)));

/**
 * The configured engine: an OpenAI-compatible model when MIRROR_LLM_BASE_URL and MIRROR_LLM_MODEL
 * are both set (the API key is optional), the built-in engine otherwise.
 */
export function mirrorReplierFor(
  config: Pick<Config, 'MIRROR_LLM_BASE_URL' | 'MIRROR_LLM_MODEL' | 'MIRROR_LLM_API_KEY'>,
  options: { timeoutMs?: number } = {},
): MirrorReplier {
  if (!config.MIRROR_LLM_BASE_URL || !config.MIRROR_LLM_MODEL) return builtInReplier;
  return llmReplier({ baseURL: config.MIRROR_LLM_BASE_URL, model: config.MIRROR_LLM_MODEL, apiKey: config.MIRROR_LLM_API_KEY, ...options });
}

/** What to log about a failed reply: never the error object itself, which may carry request details. */
export function failureOf(error: unknown): { reason: string; status?: number } {
  const status =
    typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return status === undefined ? { reason } : { reason, status };
}
