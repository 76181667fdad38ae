import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import WebSocket from 'ws';
import { frameText } from '#server/sockets/frames.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { browserFetch } from '#test/visitor.js';
import { backdater, SURVEYS } from '#test/journey.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { createFlowClient, type FlowClient } from '../../lib/flows/client.js';
import { FlowSession } from '../../lib/flows/session.js';
import { FlowSocket, socketUrlFor, type SocketLike } from '../../lib/flows/socket.js';
import { browserAssessmentFlow, browserDiagnostic } from '../../lib/flows/browser-machines.js';

let harness: TestApp;
let pool: pg.Pool;
let base: string;
let client: FlowClient;
// one visitor's browser: its cookie goes with every request and socket
const browser = browserFetch();
const sockets: FlowSocket[] = [];
const sessions: Array<{ dispose(): void }> = [];

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true, poolSize: 8 });
  ({ pool, url: base } = harness);
  client = createFlowClient({ baseUrl: base, fetch: browser.fetch });
});

afterAll(async () => {
  for (const session of sessions) session.dispose();
  for (const socket of sockets) socket.close();
  await harness?.close();
});

/** The flows the server has confirmed (`subscribed`: its push listener is in place) on each socket. */
const confirmed = new WeakMap<FlowSocket, Set<string>>();

/** Node 20 has no global WebSocket: the socket client takes the `ws` package's. */
function nodeSocket(): FlowSocket {
  const subscribed = new Set<string>();
  const socket = new FlowSocket({
    url: socketUrlFor(base),
    createSocket: (url) => {
      const ws = new WebSocket(url, { headers: { cookie: browser.cookieHeader() } });
      ws.on('message', (raw) => {
        const frame = JSON.parse(frameText(raw)) as { type: string; flowId?: string };
        if (frame.type === 'subscribed' && frame.flowId) subscribed.add(frame.flowId);
      });
      return ws as unknown as SocketLike;
    },
    backoff: { baseMs: 50, maxMs: 200 },
  });
  confirmed.set(socket, subscribed);
  sockets.push(socket);
  return socket;
}

const assessmentMachine = browserAssessmentFlow({ clearSavedAnswers: () => {} });

function assessmentSession(socket: FlowSocket | null) {
  const session = new FlowSession({ name: 'assessmentFlow', machine: assessmentMachine, client, socket, pollMs: 60_000 });
  sessions.push(session);
  const snapshot = () => session.getView().actor!.getSnapshot();
  return { session, snapshot, state: () => statePath(snapshot().value) };
}

function diagnosticSession(socket: FlowSocket | null) {
  const session = new FlowSession({ name: 'diagnostic', machine: browserDiagnostic, client, socket, pollMs: 60_000 });
  sessions.push(session);
  const snapshot = () => session.getView().actor!.getSnapshot();
  return { session, snapshot, state: () => statePath(snapshot().value) };
}

const settled = (session: FlowSession<AnyStateMachine>) => until(() => session.getView().pending === 0, 10_000);
const email = () => `web-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Answers the diagnostic the way the modal does, each screen backdated so the server sees 6 s of thought. */
async function answerDiagnostic(diagnostic: ReturnType<typeof diagnosticSession>) {
  const backdate = backdater(pool);
  const flowId = diagnostic.session.getView().flowId!;
  for (let step = 0; step < 60 && diagnostic.state() !== 'done'; step++) {
    const { context } = diagnostic.snapshot();
    const screen = context.screens[context.index]!;
    const state = diagnostic.state();
    if (state !== 'vignette.confidence') await backdate(flowId, 6000);
    if (state === 'interstitial') diagnostic.session.send({ type: 'START_TIMED' });
    else if (state === 'likert')
      diagnostic.session.send({ type: 'ANSWER_LIKERT', value: [3, 2, 4, 3][context.index % 4]!, responseTime: 6000 });
    else if (state === 'vignette.choosing')
      diagnostic.session.send({
        type: 'SELECT_OPTION',
        optionId: screen.type === 'vignette' ? screen.choiceIds[1]! : '',
        responseTime: 6000,
      });
    else if (state === 'vignette.confidence') diagnostic.session.send({ type: 'SELECT_CONFIDENCE', value: 4 });
    else if (state === 'ranking') {
      const order = [...context.ranking].reverse();
      diagnostic.session.send({ type: 'REORDER_RANKING', order });
      await settled(diagnostic.session);
      await backdate(flowId, 6000);
      diagnostic.session.send({ type: 'CONFIRM_RANKING', responseTime: 6000 });
    } else throw new Error(`unexpected ${state}`);
    // one screen per round trip here, so each answer is backdated on the screen it answers
    await settled(diagnostic.session);
  }
}

describe('the browser flow session against the real server', () => {
  it('runs capture to the book_call next step: optimistic events, server follow-ups, pushes for grading, results and payment', async () => {
    await buildTestWorker(harness, { queues: ['grading', 'timers', 'payments'] });
    const socket = nodeSocket();
    const flow = assessmentSession(socket);
    await flow.session.start({ start: { mode: 'assessment', testing: true } });
    expect(flow.state()).toBe('capture.editing');

    flow.session.send({ type: 'CAPTURE_SUBMIT', name: 'Morgan Reyes', email: email() });
    expect(flow.state()).toBe('capture.saving');
    await settled(flow.session);
    // the lead was saved in the same transaction: the answer is already at intro
    expect(flow.state()).toBe('intro');
    expect(flow.snapshot().context.session.leadId).toMatch(/^[0-9a-f-]{36}$/);

    flow.session.send({ type: 'START_DIAGNOSTIC' });
    await settled(flow.session);
    expect(flow.session.getView().serverState).toBe('diagnostic');

    const diagnostic = diagnosticSession(socket);
    await diagnostic.session.start({ start: {} });
    await answerDiagnostic(diagnostic);
    expect(diagnostic.session.getView().serverState).toBe('done');
    const answers = diagnostic.snapshot().context.answers;
    expect(Object.keys(answers)).toHaveLength(22);
    expect(answers.priority_ranking).toMatchObject({ value: ['vision', 'process', 'stakeholder', 'results', 'capability'] });

    flow.session.send({ type: 'DIAGNOSTIC_COMPLETED', answers, diagnosticFlowId: diagnostic.session.getView().flowId! });
    expect(flow.state()).toBe('survey');
    await settled(flow.session);
    expect(flow.session.getView().serverState).toBe('survey');

    flow.session.send({ type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call });
    expect(flow.state()).toBe('processing.grading');
    // graded by the worker, pushed; then the server's 1 s timer shows the results, pushed too
    await until(() => flow.session.getView().serverState === 'results', 30_000);
    expect(flow.state()).toBe('results');
    expect(flow.snapshot().context.result).toMatchObject({ qualification: 'book_call', gamingDetected: false });

    flow.session.send({ type: 'CONTINUE' });
    expect(flow.state()).toBe('yes_flow');
    // the deposit is started by the flow's own payments job (test-payment mode): nothing else is called
    flow.session.send({ type: 'PAY_DEPOSIT' });
    expect(flow.state()).toBe('payment');
    await until(() => flow.session.getView().serverState === 'payment_success.confirmed', 15_000);
    const paymentIntentId = flow.snapshot().context.session.paymentIntentId;
    expect(paymentIntentId).toMatch(/^pi_test_/);
    const tracked = await pool.query('SELECT status, test_mode FROM payment_tracking WHERE payment_intent_id = $1', [paymentIntentId]);
    expect(tracked.rows).toEqual([{ status: 'succeeded', test_mode: true }]);
  });

  it('a second tab on the same flow follows every step by push, and its stale event is refused and dropped', async () => {
    const [socketA, socketB] = [nodeSocket(), nodeSocket()];
    const flowA = assessmentSession(socketA);
    await flowA.session.start({ start: { testing: true } });
    const flowId = flowA.session.getView().flowId!;
    const flowB = assessmentSession(socketB);
    await flowB.session.start({ flowId });
    // both subscriptions confirmed before the first event
    await until(() => [socketA, socketB].every((socket) => confirmed.get(socket)!.has(flowId)));

    flowA.session.send({ type: 'CAPTURE_SUBMIT', name: 'Two Tabs', email: email() });
    await until(() => flowB.state() === 'intro', 10_000);
    expect(flowB.session.getView().version).toBe(flowA.session.getView().version);

    // both tabs click Begin at once: one wins, the other's is refused (409) and it shows the server's state
    flowA.session.send({ type: 'START_DIAGNOSTIC' });
    flowB.session.send({ type: 'START_DIAGNOSTIC' });
    await settled(flowA.session);
    await settled(flowB.session);
    await until(() => flowA.session.getView().version === flowB.session.getView().version);
    expect(flowA.state()).toBe('diagnostic');
    expect(flowB.state()).toBe('diagnostic');
    const events = await pool.query("SELECT count(*)::int AS n FROM flow_events WHERE flow_id = $1 AND type = 'START_DIAGNOSTIC'", [
      flowId,
    ]);
    expect(events.rows[0].n).toBe(1);
  });

  it('a reload resumes the diagnostic flow at the same question', async () => {
    const first = diagnosticSession(null);
    await first.session.start({ start: {} });
    const flowId = first.session.getView().flowId!;
    for (const value of [4, 2, 5]) {
      await backdater(pool)(flowId, 5000);
      first.session.send({ type: 'ANSWER_LIKERT', value, responseTime: 5000 });
      await settled(first.session);
    }
    first.session.dispose();
    const reloaded = diagnosticSession(null);
    await reloaded.session.start({ flowId, start: {} });
    expect(reloaded.session.getView().flowId).toBe(flowId);
    expect(reloaded.snapshot().context.index).toBe(3);
    expect(reloaded.state()).toBe('likert');
  });
});
