import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIRROR_WELCOME } from '#machines/mirror/mirror.machine.js';
import { reflect } from '#machines/mirror/reflect.js';
import type { MirrorTurn } from '#machines/protocol/common.js';
import { startFakeOpenAI, type FakeOpenAI } from '#test/fake-openai.js';
import { builtInReplier, failureOf, mirrorReplierFor } from './engine.js';
import { llmReplier, mirrorSystemPrompt } from './llm.js';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = 'answer';
  fake.answer = () => 'What would it cost you to say that out loud?';
});

const history: MirrorTurn[] = [
  { role: 'mirror', content: MIRROR_WELCOME },
  { role: 'user', content: 'Whether to tell my board the launch will slip.' },
];

describe('the LLM engine', () => {
  it('sends the model, the Mirror prompt and the conversation, and answers with the reply', async () => {
    const reply = await llmReplier({ baseURL: fake.url, model: 'coach-1', apiKey: 'sk-test-key' })(history, 1);
    expect(reply).toEqual({ response: 'What would it cost you to say that out loud?', isComplete: false });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.authorization).toBe('Bearer sk-test-key');
    expect(request!.body.model).toBe('coach-1');
    expect(request!.body.messages).toEqual([
      { role: 'system', content: mirrorSystemPrompt(1) },
      { role: 'assistant', content: MIRROR_WELCOME },
      { role: 'user', content: 'Whether to tell my board the launch will slip.' },
    ]);
    expect(mirrorSystemPrompt(1)).toMatch(/one short reflective question, under 60 words/);
    expect(mirrorSystemPrompt(1)).toMatch(/Never give advice/);
    expect(mirrorSystemPrompt(5)).toMatch(/exchange 5 of 5.*\n.*last reply/);
  });

  it('completes at the fifth exchange, works without an API key and drops a reasoning model’s thinking', async () => {
    fake.answer = () => '<think>They want closure.</think>\n\nWhat will you do differently on Monday?';
    const reply = await llmReplier({ baseURL: fake.url, model: 'llama3' })(history, 5);
    expect(reply).toEqual({ response: 'What will you do differently on Monday?', isComplete: true });
    expect(fake.requests[0]!.authorization).toBe('Bearer not-needed');
  });

  it('throws on a server error after one retry, on an empty answer and on a timeout', async () => {
    const replier = llmReplier({ baseURL: fake.url, model: 'coach-1', timeoutMs: 300 });
    fake.mode = 'fail';
    await expect(replier(history, 1)).rejects.toMatchObject({ status: 500 });
    expect(fake.requests).toHaveLength(2);

    fake.mode = 'empty';
    await expect(replier(history, 1)).rejects.toThrow('the model answered with no text');

    fake.mode = 'hang';
    const started = Date.now();
    await expect(replier(history, 1)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('throws when nothing listens at the address', async () => {
    const replier = llmReplier({ baseURL: 'http://127.0.0.1:9/v1', model: 'coach-1', timeoutMs: 1_000 });
    const failure = await replier(history, 1).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failureOf(failure).reason).not.toContain('not-needed');
  });
});

describe('choosing the engine', () => {
  it('uses the built-in engine unless both the base URL and the model are set', async () => {
    expect(mirrorReplierFor({ MIRROR_LLM_BASE_URL: undefined, MIRROR_LLM_MODEL: undefined, MIRROR_LLM_API_KEY: undefined })).toBe(
      builtInReplier,
    );
    expect(mirrorReplierFor({ MIRROR_LLM_BASE_URL: fake.url, MIRROR_LLM_MODEL: undefined, MIRROR_LLM_API_KEY: 'k' })).toBe(builtInReplier);
    expect(await builtInReplier(history, 2)).toEqual(reflect(history, 2));
    const llm = mirrorReplierFor({ MIRROR_LLM_BASE_URL: fake.url, MIRROR_LLM_MODEL: 'coach-1', MIRROR_LLM_API_KEY: undefined });
    expect(await llm(history, 1)).toEqual({ response: 'What would it cost you to say that out loud?', isComplete: false });
  });

  it('describes a failure by its message and status only', () => {
    const error = Object.assign(new Error('500 boom'), { status: 500, headers: { authorization: 'Bearer secret' } });
    expect(failureOf(error)).toEqual({ reason: 'Error: 500 boom', status: 500 });
  });
});
