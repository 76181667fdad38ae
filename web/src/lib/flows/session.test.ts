import { afterEach, describe, expect, it } from 'vitest';
import { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { FakeFlowServer } from '#test/fake-flow-server.js';
import { until } from '#test/until.js';
import { FlowSession } from './session.js';
import { FlowSocket } from './socket.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function open<M extends typeof assessmentFlowMachine | typeof diagnosticMachine>(
  server: FakeFlowServer,
  name: 'assessmentFlow' | 'diagnostic',
  machine: M,
  options: { socket?: boolean; pollMs?: number } = {},
) {
  const socket =
    options.socket === false
      ? null
      : new FlowSocket({ url: 'ws://test/api/ws', createSocket: server.createSocket, backoff: { baseMs: 5, maxMs: 20 } });
  const session = new FlowSession({
    name,
    machine,
    client: server.client,
    socket,
    pollMs: options.pollMs ?? 60_000,
    retry: { baseMs: 5, maxMs: 20 },
  });
  cleanups.push(() => {
    session.dispose();
    socket?.close();
  });
  const state = () => statePath((session.getView().actor!.getSnapshot() as { value: unknown }).value);
  return { session, socket, state };
}

describe('FlowSession', () => {
  it('applies a visitor event at once, then adopts the server answer with its follow-ups', async () => {
    const server = new FakeFlowServer();
    const { session, state } = open(server, 'assessmentFlow', assessmentFlowMachine);
    await session.start({ start: { mode: 'assessment' } });
    expect(session.getView()).toMatchObject({ status: 'ready', version: 0, serverState: 'capture.editing' });
    expect(state()).toBe('capture.editing');

    expect(session.send({ type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' })).toBe(true);
    // optimistic: the local machine is already saving; the server has not answered yet
    expect(state()).toBe('capture.saving');
    expect(session.getView().pending).toBe(1);

    // the server saved the lead in the same transaction (LEAD_SAVED follow-up): intro, version 2
    await until(() => session.getView().pending === 0);
    expect(state()).toBe('intro');
    expect(session.getView()).toMatchObject({ version: 2, serverState: 'intro' });
    expect(session.getView().actor!.getSnapshot().context.session.leadId).toMatch(/^0{8}-/);
  });

  it('refuses locally what the local copy does not take (a double click posts nothing)', async () => {
    const server = new FakeFlowServer();
    const { session } = open(server, 'assessmentFlow', assessmentFlowMachine);
    await session.start({ start: {} });
    expect(session.send({ type: 'START_DIAGNOSTIC' })).toBe(false);
    expect(server.calls.filter((call) => call.startsWith('send'))).toEqual([]);
  });

  it('posts queued events one at a time, in order, each with the version it follows', async () => {
    const server = new FakeFlowServer();
    const { session, state } = open(server, 'diagnostic', diagnosticMachine);
    await session.start({ start: {} });
    expect(state()).toBe('likert');
    for (const value of [4, 2, 5]) expect(session.send({ type: 'ANSWER_LIKERT', value, responseTime: 4000 })).toBe(true);
    expect(state()).toBe('done');
    await until(() => session.getView().pending === 0);
    const flowId = session.getView().flowId!;
    expect(server.flows.get(flowId)!.version).toBe(3);
    expect(session.getView()).toMatchObject({ version: 3, serverState: 'done' });
    const answers = session.getView().actor!.getSnapshot().context.answers;
    expect(Object.values(answers).map((a) => a.value)).toEqual([4, 2, 5]);
  });

  it("adopts another tab's event from a push, and ignores a push it is not behind", async () => {
    const server = new FakeFlowServer();
    const first = open(server, 'diagnostic', diagnosticMachine);
    await first.session.start({ start: {} });
    const flowId = first.session.getView().flowId!;
    const second = open(server, 'diagnostic', diagnosticMachine);
    await second.session.start({ flowId });
    await until(() => server.followers(flowId) === 2);

    second.session.send({ type: 'ANSWER_LIKERT', value: 1, responseTime: 3000 });
    await until(() => first.session.getView().version === 1);
    expect(first.session.getView().actor!.getSnapshot().context.index).toBe(1);
    expect(second.session.getView().actor!.getSnapshot().context.index).toBe(1);
  });

  it('a 409 adopts the server copy and drops the refused event and what was queued after it', async () => {
    const server = new FakeFlowServer();
    const { session, state } = open(server, 'diagnostic', diagnosticMachine, { socket: false });
    await session.start({ start: {} });
    const flowId = session.getView().flowId!;
    // another tab answers the first screen; this tab has not heard (no socket)
    server.apply(flowId, { type: 'ANSWER_LIKERT', value: 5, responseTime: 3000 }, 'client');
    session.send({ type: 'ANSWER_LIKERT', value: 1, responseTime: 3000 });
    session.send({ type: 'ANSWER_LIKERT', value: 2, responseTime: 3000 });
    expect(state()).toBe('likert');
    await until(() => session.getView().pending === 0);
    // the server's copy: one answer (5), at screen 2; the two answers chosen on a stale screen are gone
    const context = session.getView().actor!.getSnapshot().context;
    expect(context.index).toBe(1);
    expect(Object.values(context.answers).map((a) => a.value)).toEqual([5]);
    expect(server.calls.filter((call) => call.startsWith('send'))).toEqual(['send:ANSWER_LIKERT']);
  });

  it('an event whose answer was lost is retried with its expected version, and never applies twice', async () => {
    const server = new FakeFlowServer();
    const { session } = open(server, 'diagnostic', diagnosticMachine, { socket: false });
    await session.start({ start: {} });
    // the first POST lands on the server but its answer never arrives
    server.failNextSends = { count: 1, landed: true };
    session.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 3000 });
    await until(() => !session.getView().offline && session.getView().pending === 0);
    // posted twice: the retry met a 409 carrying the flow it had already moved
    expect(server.calls.filter((call) => call.startsWith('send'))).toEqual(['send:ANSWER_LIKERT', 'send:ANSWER_LIKERT']);
    const flowId = session.getView().flowId!;
    expect(server.flows.get(flowId)!.version).toBe(1);
    expect(session.getView().actor!.getSnapshot().context.index).toBe(1);
  });

  it('an event that could not be posted waits and goes when the server answers again', async () => {
    const server = new FakeFlowServer();
    const { session, state } = open(server, 'diagnostic', diagnosticMachine, { socket: false });
    await session.start({ start: {} });
    server.failNextSends = { count: 3, landed: false };
    session.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 3000 });
    session.send({ type: 'ANSWER_LIKERT', value: 3, responseTime: 3000 });
    expect(state()).toBe('likert');
    expect(session.getView().actor!.getSnapshot().context.index).toBe(2);
    await until(() => session.getView().pending === 0);
    expect(session.getView()).toMatchObject({ offline: false, version: 2 });
    expect(session.getView().actor!.getSnapshot().context.index).toBe(2);
  });

  it('resumes a flow by id, and starts a new one when the server no longer has it', async () => {
    const server = new FakeFlowServer();
    const { session } = open(server, 'diagnostic', diagnosticMachine);
    await session.start({ start: {} });
    const flowId = session.getView().flowId!;
    session.send({ type: 'ANSWER_LIKERT', value: 4, responseTime: 3000 });
    await until(() => session.getView().pending === 0);

    const ids: string[] = [];
    const resumed = new FlowSession({
      name: 'diagnostic',
      machine: diagnosticMachine,
      client: server.client,
      socket: null,
      onFlowId: (id) => ids.push(id),
    });
    cleanups.push(() => resumed.dispose());
    await resumed.start({ flowId, start: {} });
    expect(resumed.getView().flowId).toBe(flowId);
    expect(resumed.getView().actor!.getSnapshot().context.index).toBe(1);

    const fresh = new FlowSession({
      name: 'diagnostic',
      machine: diagnosticMachine,
      client: server.client,
      socket: null,
      onFlowId: (id) => ids.push(id),
    });
    cleanups.push(() => fresh.dispose());
    await fresh.start({ flowId: '11111111-1111-4111-8111-111111111111', start: {} });
    expect(fresh.getView().flowId).not.toBe(flowId);
    expect(fresh.getView().actor!.getSnapshot().context.index).toBe(0);
    expect(ids).toEqual([flowId, fresh.getView().flowId]);
  });

  it('joins two starts with the same key into one flow (React development double mount)', async () => {
    const server = new FakeFlowServer();
    const a = new FlowSession({ name: 'diagnostic', machine: diagnosticMachine, client: server.client, socket: null, startKey: 'k' });
    const b = new FlowSession({ name: 'diagnostic', machine: diagnosticMachine, client: server.client, socket: null, startKey: 'k' });
    cleanups.push(
      () => a.dispose(),
      () => b.dispose(),
    );
    await Promise.all([a.start({ start: {} }), b.start({ start: {} })]);
    expect(a.getView().flowId).toBe(b.getView().flowId);
    expect(server.calls.filter((call) => call === 'start')).toHaveLength(1);
  });

  it('after the socket drops, re-subscribes and re-reads a flow that moved meanwhile', async () => {
    const server = new FakeFlowServer();
    const { session, socket } = open(server, 'diagnostic', diagnosticMachine);
    await session.start({ start: {} });
    await until(() => socket!.status === 'open');
    const flowId = session.getView().flowId!;
    const statuses: string[] = [];
    socket!.onStatus((status) => statuses.push(status));
    server.dropSockets();
    // applied while nobody listened: no push reaches this tab
    server.apply(flowId, { type: 'ANSWER_LIKERT', value: 2, responseTime: 3000 }, 'client');
    await until(() => session.getView().version === 1);
    expect(statuses).toEqual(['connecting', 'open']);
    expect(session.getView().actor!.getSnapshot().context.index).toBe(1);
  });

  it('polls when there is no socket', async () => {
    const server = new FakeFlowServer();
    const { session } = open(server, 'diagnostic', diagnosticMachine, { socket: false, pollMs: 10 });
    await session.start({ start: {} });
    server.apply(session.getView().flowId!, { type: 'ANSWER_LIKERT', value: 2, responseTime: 3000 }, 'worker');
    await until(() => session.getView().version === 1);
  });

  it('a local-only event holds the screen until the server copy moves past the held states', async () => {
    const server = new FakeFlowServer();
    const { session, state } = open(server, 'diagnostic', diagnosticMachine, { socket: false, pollMs: 10 });
    await session.start({ start: {} });
    const flowId = session.getView().flowId!;
    expect(
      session.applyLocal(
        { type: 'ANSWER_LIKERT', value: 3, responseTime: 3000 },
        (flow) => (flow.snapshot.context as { index: number }).index < 2,
      ),
    ).toBe(true);
    expect(session.getView().held).toBe(true);
    // while held, visitor events are refused: the server is not where the screen is
    expect(session.send({ type: 'ANSWER_LIKERT', value: 3, responseTime: 3000 })).toBe(false);
    server.apply(flowId, { type: 'ANSWER_LIKERT', value: 1, responseTime: 3000 }, 'client');
    await until(() => session.getView().version === 1);
    expect(session.getView().actor!.getSnapshot().context.answers.b1!.value).toBe(3);
    server.apply(flowId, { type: 'ANSWER_LIKERT', value: 1, responseTime: 3000 }, 'client');
    await until(() => !session.getView().held);
    expect(state()).toBe('likert');
    expect(session.getView().actor!.getSnapshot().context.answers.b1!.value).toBe(1);
  });
});
