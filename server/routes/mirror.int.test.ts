import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIRROR_FALLBACK_REPLY, MIRROR_WELCOME } from '#machines/mirror/mirror.machine.js';
import { startFakeOpenAI, type FakeOpenAI } from '#test/fake-openai.js';
import { buildTestApp, type TestApp, type TestAppOptions } from '#test/test-app.js';
import { injectAs } from '#test/visitor.js';

const URL = '/api/functions/mirror-llm-response';
const welcome = { role: 'mirror', content: MIRROR_WELCOME };

let pool: pg.Pool;
/** The built-in engine's app; the others run on its pool. */
let harness: TestApp;
let fake: FakeOpenAI;
let builtIn: FastifyInstance;
let llm: FastifyInstance;

let llmApp: TestApp;
// A queue prefix of its own keeps each app's rate-limit counters apart from other files'.
const app = (options: TestAppOptions = {}) => buildTestApp({ ownPrefix: true, sharing: harness, ...options });

beforeAll(async () => {
  harness = await buildTestApp({ ownPrefix: true });
  ({ app: builtIn, pool } = harness);
  fake = await startFakeOpenAI();
  llmApp = await app({ env: { MIRROR_LLM_MODEL: 'coach-test', MIRROR_LLM_API_KEY: 'sk-route-test' }, fakes: { openai: fake.url } });
  llm = llmApp.app;
});

afterAll(async () => {
  await llmApp?.close();
  await fake.close();
  await harness?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = 'answer';
});

const ask = (target: FastifyInstance, payload: unknown) => target.inject({ method: 'POST', url: URL, payload: payload as object });

async function stored(sessionId: string) {
  const session = await pool.query('SELECT flow_id, lead_id, saved, turns, completed FROM mirror_sessions WHERE id = $1', [sessionId]);
  const messages = await pool.query('SELECT role, content, turn FROM mirror_messages WHERE session_id = $1 ORDER BY id', [sessionId]);
  return { session: session.rows[0], messages: messages.rows };
}

describe('POST /api/functions/mirror-llm-response', () => {
  it('answers with a reflective question on the built-in engine, completing at the fifth turn', async () => {
    const history = [welcome, { role: 'user', content: 'Whether to move my best engineer onto the failing project.' }];
    const first = await ask(builtIn, { conversationHistory: history, turn: 1 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ response: expect.stringContaining('“move my best engineer onto the failing…”'), isComplete: false });
    const last = await ask(builtIn, { conversationHistory: history, turn: 5 });
    expect(last.json()).toMatchObject({ isComplete: true });
  });

  it('validates the body and names the bad fields', async () => {
    const cases: Array<[unknown, string]> = [
      [{ conversationHistory: [welcome, { role: 'user', content: 'hi' }] }, 'turn'],
      [{ conversationHistory: [welcome, { role: 'user', content: 'hi' }], turn: 6 }, 'turn'],
      [{ conversationHistory: [welcome, { role: 'user', content: '   ' }], turn: 1 }, 'conversationHistory.1.content'],
      [{ conversationHistory: [welcome, { role: 'coach', content: 'hi' }], turn: 1 }, 'conversationHistory.1.role'],
      [{ conversationHistory: [welcome, { role: 'user', content: 'x'.repeat(4001) }], turn: 1 }, 'conversationHistory.1.content'],
      [{ conversationHistory: [welcome], turn: 1 }, 'conversationHistory'],
      [{ conversationHistory: Array.from({ length: 12 }, () => ({ role: 'user', content: 'hi' })), turn: 5 }, 'conversationHistory'],
      [{ conversationHistory: [welcome, { role: 'user', content: 'hi' }], turn: 1, save: true }, 'sessionId'],
      [{ conversationHistory: [welcome, { role: 'user', content: 'hi' }], turn: 1, sessionId: 'abc' }, 'sessionId'],
    ];
    for (const [payload, field] of cases) {
      const response = await ask(builtIn, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(Object.keys(response.json().fields)).toContain(field);
    }
  });

  it('stores the exchange only when saving, once however often it is sent', async () => {
    const saved = randomUUID();
    const history = [welcome, { role: 'user', content: '  I keep avoiding a hard talk with my co-founder.  ' }];
    const reply = (await ask(builtIn, { conversationHistory: history, turn: 1, sessionId: saved, save: true })).json();
    await ask(builtIn, { conversationHistory: history, turn: 1, sessionId: saved, save: true });
    expect(await stored(saved)).toEqual({
      session: { flow_id: null, lead_id: null, saved: true, turns: 1, completed: false },
      messages: [
        { role: 'user', content: 'I keep avoiding a hard talk with my co-founder.', turn: 1 },
        { role: 'mirror', content: reply.response, turn: 1 },
      ],
    });

    const unsaved = randomUUID();
    await ask(builtIn, { conversationHistory: history, turn: 1, sessionId: unsaved, save: false });
    expect(await stored(unsaved)).toEqual({
      session: { flow_id: null, lead_id: null, saved: false, turns: 1, completed: false },
      messages: [],
    });
  });

  it("a saved session goes with the lead its visitor leaves their details for, and never with a stranger's", async () => {
    const owner = injectAs(builtIn, { remoteAddress: '198.51.100.71' });
    const sessionId = randomUUID();
    const history = [welcome, { role: 'user', content: 'Whether to split the platform team in two.' }];
    expect(
      (await owner({ method: 'POST', url: URL, payload: { conversationHistory: history, turn: 1, sessionId, save: true } })).statusCode,
    ).toBe(200);

    // someone else who learned the session id and captures with it attaches nothing
    const stranger = injectAs(builtIn, { remoteAddress: '198.51.100.72' });
    const theirs = await stranger({
      method: 'POST',
      url: '/api/leads',
      payload: { email: `mirror-stranger-${sessionId}@example.com`, name: 'Eve', mirrorSessionId: sessionId },
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect((await stored(sessionId)).session.lead_id).toBeNull();

    const mine = await owner({
      method: 'POST',
      url: '/api/leads',
      payload: { email: `mirror-owner-${sessionId}@example.com`, name: 'Sam Rivera', mirrorSessionId: sessionId },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect((await stored(sessionId)).session.lead_id).toBe(mine.json().leadId);
  });

  it('asks the configured model with the conversation, and answers the fallback when it fails', async () => {
    fake.answer = (request) => `You said "${request.body.messages!.at(-1)!.content}". What makes it hard?`;
    const history = [welcome, { role: 'user', content: 'Cutting the budget for my own team.' }];
    const answered = await ask(llm, { conversationHistory: history, turn: 2 });
    expect(answered.json()).toEqual({ response: 'You said "Cutting the budget for my own team.". What makes it hard?', isComplete: false });
    expect(fake.requests[0]!.body).toMatchObject({
      model: 'coach-test',
      messages: [
        { role: 'system' },
        { role: 'assistant', content: MIRROR_WELCOME },
        { role: 'user', content: 'Cutting the budget for my own team.' },
      ],
    });
    expect(fake.requests[0]!.authorization).toBe('Bearer sk-route-test');

    fake.mode = 'fail';
    const sessionId = randomUUID();
    const failed = await ask(llm, { conversationHistory: history, turn: 5, sessionId, save: true });
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toEqual({ response: MIRROR_FALLBACK_REPLY, isComplete: false });
    expect((await stored(sessionId)).messages.at(-1)).toEqual({ role: 'mirror', content: MIRROR_FALLBACK_REPLY, turn: 5 });
  });

  it('is rate limited per client', async () => {
    const { app: limited, close } = await app();
    try {
      const payload = { conversationHistory: [welcome, { role: 'user', content: 'hello there' }], turn: 1 };
      const statuses: number[] = [];
      for (let i = 0; i < 31; i += 1) statuses.push((await ask(limited, payload)).statusCode);
      expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await close();
    }
  });

  it('is in the OpenAPI document', async () => {
    const document = (await builtIn.inject('/api/docs/json')).json();
    expect(document.paths).toHaveProperty([URL]);
  });
});
