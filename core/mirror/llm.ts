import type OpenAI from 'openai';
import { MIRROR_STAGES } from '#machines/mirror/reflect.js';
import type { MirrorTurn } from '#machines/protocol/common.js';
import { MIRROR_TURN_LIMIT, type MirrorReplyResponse } from '#machines/protocol/mirror.js';

/** Where the LLM engine sends its requests: any OpenAI-compatible chat-completions endpoint. */
export interface LlmSettings {
  baseURL: string;
  model: string;
  /** Local servers (Ollama, llama.cpp) take none. */
  apiKey?: string | undefined;
  /** The whole call's deadline, retry included. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;
// The prompt asks for under 60 words; this only stops a runaway answer from filling the chat.
const MAX_REPLY_CHARS = 1_000;

/** The Mirror's instructions, with the part of the five-exchange arc this reply is for. */
export function mirrorSystemPrompt(turn: number): string {
  const stage = Math.min(Math.max(turn, 1), MIRROR_TURN_LIMIT);
  const final = stage === MIRROR_TURN_LIMIT;
  return [
    'You are The Mirror, a reflective leadership coach in a short demo chat.',
    'The visitor is thinking through a difficult decision in their current role. Help them see it more clearly by reflecting their own words back; quote a few of them when it helps.',
    'Answer with one short reflective question, under 60 words, in plain text.',
    'Never give advice, opinions, diagnoses or lists, and never ask more than one question.',
    `This is exchange ${stage} of ${MIRROR_TURN_LIMIT}; this reply explores ${MIRROR_STAGES[stage - 1]}.`,
    final
      ? 'It is the last reply: reflect back in one sentence what they noticed, then close with one question about what they will do differently.'
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

// Reasoning models served by Ollama and the like put their thinking in the content.
function cleanReply(content: string | null | undefined): string {
  const text = (content ?? '').replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (text.length <= MAX_REPLY_CHARS) return text;
  const cut = text.slice(0, MAX_REPLY_CHARS);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/**
 * The LLM engine: one chat completion per reply. Throws on any failure (network, timeout, an
 * error status, an empty answer); the caller turns that into the product's fallback.
 */
export function llmReplier(settings: LlmSettings) {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // the SDK is loaded for the first reply: a process whose Mirror never calls a model never holds it
  let client: Promise<OpenAI> | undefined;
  const openClient = () =>
    (client ??= import('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          baseURL: settings.baseURL,
          // the SDK refuses to start without a key; local servers ignore the placeholder
          apiKey: settings.apiKey ?? 'not-needed',
          // explicit, so nothing is read from OPENAI_* variables in the environment
          organization: null,
          project: null,
          adminAPIKey: null,
          timeout: timeoutMs,
          maxRetries: 1,
        }),
    ));
  return async (conversationHistory: readonly MirrorTurn[], turn: number): Promise<MirrorReplyResponse> => {
    const openai = await openClient();
    const completion = await openai.chat.completions.create(
      {
        model: settings.model,
        messages: [
          { role: 'system', content: mirrorSystemPrompt(turn) },
          ...conversationHistory.map((t) => ({
            role: t.role === 'mirror' ? ('assistant' as const) : ('user' as const),
            content: t.content,
          })),
        ],
      },
      // one deadline for the call and its retry together
      { signal: AbortSignal.timeout(timeoutMs) },
    );
    const response = cleanReply(completion.choices[0]?.message?.content);
    if (!response) throw new Error('the model answered with no text');
    return { response, isComplete: turn >= MIRROR_TURN_LIMIT };
  };
}
