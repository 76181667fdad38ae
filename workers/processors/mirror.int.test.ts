import type { Job } from 'bullmq';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIRROR_FALLBACK_REPLY, MIRROR_WELCOME } from '#machines/mirror/mirror.machine.js';
import type { MirrorTurn } from '#machines/protocol/common.js';
import type { MirrorReplyRequest } from '#machines/protocol/mirror.js';
import type { Config } from '#core/config/index.js';
import { FlowEngine } from '#core/flows/engine.js';
import type { RelayedJobData } from '#core/queues/relay.js';
import { startFakeOpenAI, type FakeOpenAI } from '#test/fake-openai.js';
import { seedFlow } from '#test/flows.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { injectAs, type InjectVisitor } from '#test/visitor.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { createMirrorProcessor, mirrorProcessor } from './mirror.js';

interface MirrorFlow {
  flowId: string;
  state: string;
  snapshot: { context: { sessionId: string; turn: number; messages: MirrorTurn[]; save: boolean } };
}

// A database of this file's own: an outbox relay claims every pending job row of its database.
let harness: TestApp;
let config: Config;
let pool: pg.Pool;
// one visitor's browser: the flows below are all its own
let browser: InjectVisitor;
let fake: FakeOpenAI;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, poolSize: 8 });
  ({ pool, config } = harness);
  browser = injectAs(harness.app);
  fake = await startFakeOpenAI();
});

afterAll(async () => {
  await harness?.close();
  await fake.close();
});

const withLlm = () => ({ ...config, MIRROR_LLM_BASE_URL: fake.url, MIRROR_LLM_MODEL: 'coach-test' });

async function startMirror(): Promise<MirrorFlow> {
  const response = await browser({ method: 'POST', url: '/api/flows', payload: { machine: 'mirror' } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function read(flowId: string): Promise<MirrorFlow> {
  return (await browser(`/api/flows/${flowId}`)).json();
}

async function send(flowId: string, event: Record<string, unknown>): Promise<MirrorFlow> {
  const response = await browser({ method: 'POST', url: `/api/flows/${flowId}/events`, payload: { event } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Sends a message and waits for the Mirror's reply to be shown. */
async function exchange(flowId: string, text: string): Promise<MirrorFlow> {
  const sent = await send(flowId, { type: 'SEND', text });
  expect(sent.state).toBe('awaitingReply');
  let flow = sent;
  await until(async () => {
    flow = await read(flowId);
    return flow.snapshot.context.turn === sent.snapshot.context.turn + 1;
  });
  return flow;
}

const lastMessage = (flow: MirrorFlow) => flow.snapshot.context.messages.at(-1);

async function stored(sessionId: string, db = pool) {
  const session = await db.query('SELECT flow_id, saved, turns, completed FROM mirror_sessions WHERE id = $1', [sessionId]);
  const messages = await db.query<{ role: string; content: string; turn: number }>(
    'SELECT role, content, turn FROM mirror_messages WHERE session_id = $1 ORDER BY id',
    [sessionId],
  );
  return { session: session.rows[0], messages: messages.rows };
}

const STORY = [
  'Whether to pull my team off the client project that is losing money.',
  'My team would lose the work they are proud of, and the client would feel abandoned.',
  'They never tell me when a project is in trouble, so I find out too late.',
  'Yes, this has happened before. I tend to wait until the numbers force me.',
  'I should have asked for weekly numbers. Next time I will.',
];

describe('the mirror processor with the built-in engine', () => {
  it('answers each message with a reflective question, completes after five, and stores a saved session', async () => {
    await buildTestWorker({ pool, config }, { queues: ['mirror', 'timers'], processors: { mirror: mirrorProcessor } });
    const flow = await startMirror();
    await send(flow.flowId, { type: 'SET_SAVE', save: true });

    let current = flow;
    for (const [index, text] of STORY.entries()) {
      current = await exchange(flow.flowId, text);
      expect(current.state).toBe(index < 4 ? 'chatting' : 'complete');
      expect(lastMessage(current)?.role).toBe('mirror');
      expect(lastMessage(current)?.content).toMatch(/\?$/);
    }
    const replies = current.snapshot.context.messages.filter((m) => m.role === 'mirror').map((m) => m.content);
    expect(replies[0]).toBe(MIRROR_WELCOME);
    expect(replies[1]).toContain('“pull my team off the client project…”');
    expect(replies[5]).toContain('“I should have asked for weekly numbers”');

    const { sessionId } = current.snapshot.context;
    const { session, messages } = await stored(sessionId);
    expect(session).toEqual({ flow_id: flow.flowId, saved: true, turns: 5, completed: true });
    expect(messages).toEqual(current.snapshot.context.messages.slice(1).map((m, i) => ({ ...m, turn: Math.floor(i / 2) + 1 })));

    const events = await pool.query("SELECT type, origin FROM flow_events WHERE flow_id = $1 AND type = 'REPLY_RECEIVED'", [flow.flowId]);
    expect(events.rows).toHaveLength(5);
    expect(events.rows.every((e) => e.origin === 'worker')).toBe(true);
  });

  it('records the session but stores no messages when the visitor does not save', async () => {
    await buildTestWorker({ pool, config }, { queues: ['mirror', 'timers'], processors: { mirror: mirrorProcessor } });
    const flow = await startMirror();
    const answered = await exchange(flow.flowId, 'Whether to fire a popular manager.');
    expect(answered.state).toBe('chatting');
    expect(await stored(answered.snapshot.context.sessionId)).toEqual({
      session: { flow_id: flow.flowId, saved: false, turns: 1, completed: false },
      messages: [],
    });
  });
});

describe('the mirror processor with an LLM', () => {
  it('asks the model with the conversation and shows its reply', async () => {
    fake.mode = 'answer';
    fake.requests.length = 0;
    fake.answer = () => 'What would your team say if you asked them?';
    await buildTestWorker({ pool, config: withLlm() }, { queues: ['mirror', 'timers'], processors: { mirror: mirrorProcessor } });
    const flow = await startMirror();
    const answered = await exchange(flow.flowId, 'Whether to reorganise the support team.');
    expect(lastMessage(answered)).toEqual({ role: 'mirror', content: 'What would your team say if you asked them?' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body).toMatchObject({
      model: 'coach-test',
      messages: [
        { role: 'system' },
        { role: 'assistant', content: MIRROR_WELCOME },
        { role: 'user', content: 'Whether to reorganise the support team.' },
      ],
    });
  });

  it('shows the fallback line when the model fails', async () => {
    fake.mode = 'fail';
    await buildTestWorker(
      { pool, config: withLlm() },
      { queues: ['mirror', 'timers'], processors: { mirror: createMirrorProcessor({ llmTimeoutMs: 2_000 }) } },
    );
    const flow = await startMirror();
    const answered = await exchange(flow.flowId, 'Whether to reorganise the support team.');
    expect(answered.state).toBe('chatting');
    expect(lastMessage(answered)).toEqual({ role: 'mirror', content: MIRROR_FALLBACK_REPLY });
    const events = await pool.query('SELECT type FROM flow_events WHERE flow_id = $1 AND origin = $2', [flow.flowId, 'worker']);
    expect(events.rows).toEqual([{ type: 'REPLY_FAILED' }]);
  });
});

describe('the mirror processor, run directly', () => {
  const REVEALED = { type: 'xstate.after.replyDelay.mirror.revealing' };
  let context: Parameters<typeof mirrorProcessor.process>[1];

  beforeAll(() => {
    context = { pool, config, log: pino({ level: 'silent' }), engine: new FlowEngine(pool), publishMonitor: async () => {} };
  });

  const job = (flowId: string, request: MirrorReplyRequest) =>
    ({ data: { jobRowId: '0', payload: { flowId, request } } }) as unknown as Job<RelayedJobData>;

  /** A mirror flow seeded straight to awaitingReply, with no reply job queued for it. */
  async function awaiting(events: Array<{ type: string; [key: string]: unknown }>) {
    const flowId = await seedFlow(pool, 'mirror', [{ type: 'SET_SAVE', save: true }, ...events]);
    const row = await pool.query<{ snapshot: MirrorFlow['snapshot'] }>('SELECT snapshot FROM flows WHERE id = $1', [flowId]);
    const { sessionId, messages, turn } = row.rows[0]!.snapshot.context;
    return { flowId, request: { sessionId, conversationHistory: messages, turn: turn + 1, save: true } };
  }

  it('applies a reply once: a retry after the first run committed changes and stores nothing', async () => {
    const { flowId, request } = await awaiting([{ type: 'SEND', text: 'Whether to close the Leeds office.' }]);
    expect(await mirrorProcessor.process(job(flowId, request), context)).toEqual({ applied: 'REPLY_RECEIVED', state: 'revealing' });
    expect(await mirrorProcessor.process(job(flowId, request), context)).toEqual({ skipped: 'the flow no longer waits for reply 1' });
    expect((await stored(request.sessionId)).messages).toHaveLength(2);
    const events = await pool.query("SELECT 1 FROM flow_events WHERE flow_id = $1 AND type = 'REPLY_RECEIVED'", [flowId]);
    expect(events.rowCount).toBe(1);
  });

  it('does not answer a newer message with a stale reply', async () => {
    const flowId = await seedFlow(pool, 'mirror', [
      { type: 'SEND', text: 'First thing.' },
      { type: 'REPLY_RECEIVED', response: 'Why?', isComplete: false },
      REVEALED,
      { type: 'SEND', text: 'Second thing.' },
    ]);
    const session = await pool.query<{ id: string }>("SELECT snapshot -> 'context' ->> 'sessionId' AS id FROM flows WHERE id = $1", [
      flowId,
    ]);
    const stale = {
      sessionId: session.rows[0]!.id,
      conversationHistory: [
        { role: 'mirror' as const, content: MIRROR_WELCOME },
        { role: 'user' as const, content: 'First thing.' },
      ],
      turn: 1,
      save: false,
    };
    expect(await mirrorProcessor.process(job(flowId, stale), context)).toEqual({ skipped: 'the flow no longer waits for reply 1' });
    const flow = await pool.query('SELECT state FROM flows WHERE id = $1', [flowId]);
    expect(flow.rows[0].state).toBe('awaitingReply');
  });

  it('tells the flow the reply failed once retries are spent', async () => {
    const { flowId, request } = await awaiting([{ type: 'SEND', text: 'Whether to go.' }]);
    await mirrorProcessor.onExhausted!(job(flowId, request), context, new Error('database down'));
    const flow = await pool.query("SELECT snapshot -> 'context' -> 'pendingReply' AS pending FROM flows WHERE id = $1", [flowId]);
    expect(flow.rows[0].pending).toEqual({ content: MIRROR_FALLBACK_REPLY, isComplete: false, fallback: true });
  });

  it('keeps the reply when storing the exchange fails', async () => {
    await pool.query(`
      CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
      CREATE TRIGGER refuse BEFORE INSERT ON mirror_messages FOR EACH ROW EXECUTE FUNCTION refuse();`);
    try {
      const { flowId, request } = await awaiting([{ type: 'SEND', text: 'Whether to go.' }]);
      expect(await mirrorProcessor.process(job(flowId, request), context)).toEqual({ applied: 'REPLY_RECEIVED', state: 'revealing' });
      expect(await stored(request.sessionId)).toEqual({ session: undefined, messages: [] });
    } finally {
      await pool.query('DROP TRIGGER refuse ON mirror_messages; DROP FUNCTION refuse();');
    }
  });
});
