import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { backdater, flowClient, openSocket, promoteTimers, runDiagnostic, SURVEYS, type FlowJson } from '#test/journey.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { UnrecoverableError } from 'bullmq';
import { retryJob } from '#server/admin/jobs.js';
import { gradingProcessor } from '#workers/processors/grading.js';

let harness: TestApp;
let pool: pg.Pool;
let base: string;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true, poolSize: 8 });
  ({ pool, url: base } = harness);
});

afterAll(() => harness?.close());

/** A diagnostic flow walked up to 'Timed Questions Ahead', each screen answered after a plausible 5 s. */
async function toTimedBlock(client: ReturnType<typeof flowClient>): Promise<FlowJson> {
  const backdate = backdater(pool);
  let flow = await client.start({ machine: 'diagnostic' });
  while (flow.state !== 'interstitial') {
    await backdate(flow.flowId, 5000);
    if (flow.state === 'likert') flow = await client.send(flow.flowId, { type: 'ANSWER_LIKERT', value: 4, responseTime: 5000 });
    else if (flow.state === 'ranking') flow = await client.send(flow.flowId, { type: 'CONFIRM_RANKING', responseTime: 5000 });
    else throw new Error(`unexpected ${flow.state}`);
  }
  return flow;
}

const email = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Capture, intro and the whole diagnostic over HTTP; returns the flow standing at the survey. */
async function toSurvey(client: ReturnType<typeof flowClient>, options: { thinkMs?: number } = { thinkMs: 6000 }): Promise<FlowJson> {
  const flow = await client.start();
  await client.send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Morgan Reyes', email: email('journey') });
  await client.send(flow.flowId, { type: 'START_DIAGNOSTIC' });
  const diagnostic = await runDiagnostic(client, { backdate: backdater(pool), ...options });
  expect(diagnostic.state).toBe('done');
  // the browser's copy of the answers is ignored: the server takes the diagnostic flow's own
  return client.send(flow.flowId, { type: 'DIAGNOSTIC_COMPLETED', answers: {}, diagnosticFlowId: diagnostic.flowId });
}

describe('the assessment over HTTP and the socket, from capture to each tier', () => {
  it.each([
    ['book_call', 'yes_flow'],
    ['homework', 'maybe_flow'],
    ['nurture', 'no_flow.offered'],
  ] as const)('grades a %s visitor, pushes the result, and routes to %s', async (tier, routed) => {
    await buildTestWorker(harness, { queues: ['grading', 'timers'] });
    const client = flowClient(base);
    const atSurvey = await toSurvey(client);
    expect(atSurvey.state).toBe('survey');
    expect(Object.keys(atSurvey.snapshot.context.answers)).toHaveLength(22);

    const socket = await openSocket(base, client.cookie());
    try {
      await socket.subscribe(atSurvey.flowId);
      const processing = await client.send(atSurvey.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS[tier] });
      expect(processing.state).toBe('processing.grading');

      const graded = await socket.next((f) => f.type === 'event' && f.event.type === 'GRADED');
      // graded means shown: the 1 s reveal is the screen's own pause (decision 0029)
      expect(graded).toMatchObject({ origin: 'worker', state: 'results' });
    } finally {
      socket.close();
    }

    const results = await client.get(atSurvey.flowId);
    expect(results.snapshot.context.result).toMatchObject({ qualification: tier, gamingDetected: false });
    const leadId = results.snapshot.context.session.leadId;
    const stored = await pool.query('SELECT tier, archetype FROM assessment_results WHERE flow_id = $1', [atSurvey.flowId]);
    expect(stored.rows).toEqual([{ tier, archetype: results.snapshot.context.result.archetype }]);
    const lead = await pool.query('SELECT tier FROM lead_facts(true) WHERE lead_id = $1', [leadId]);
    expect(lead.rows[0].tier).toBe(tier);
    const answers = await pool.query('SELECT jsonb_array_length(answers) AS n FROM diagnostics WHERE flow_id = $1', [atSurvey.flowId]);
    expect(answers.rows[0].n).toBe(22);

    expect((await client.send(atSurvey.flowId, { type: 'CONTINUE' })).state).toBe(routed);
  });

  it('answers given faster than the server saw them shown grade as gaming, whatever the browser claimed', async () => {
    await buildTestWorker(harness, { queues: ['grading', 'timers'] });
    const client = flowClient(base);
    const flow = await client.start();
    await client.send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Quick Draw', email: email('rushed') });
    await client.send(flow.flowId, { type: 'START_DIAGNOSTIC' });
    // claims 6 s per answer but sends them back to back
    const diagnostic = await runDiagnostic(client, { thinkMs: 6000 });
    const answers = Object.values<{ responseTime: number }>(diagnostic.snapshot.context.answers);
    expect(answers.every((answer) => answer.responseTime < 2000)).toBe(true);
    await client.send(flow.flowId, { type: 'DIAGNOSTIC_COMPLETED', answers: {}, diagnosticFlowId: diagnostic.flowId });
    await client.send(flow.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call });
    await until(async () => (await client.get(flow.flowId)).state === 'gaming_detected', 20_000, 'never reached gaming_detected');
  });

  it('records a timed answer that arrives after the limit plus grace as the timeout auto-answer, by the server clock only', async () => {
    const client = flowClient(base);
    const backdate = backdater(pool);
    let flow = await toTimedBlock(client);
    flow = await client.send(flow.flowId, { type: 'START_TIMED' });
    const { context } = flow.snapshot;
    const timed = context.screens[context.index];
    const limitMs = timed.timeLimitSec * 1000;

    await backdate(flow.flowId, limitMs + 1500); // late, but within the 2 s grace
    // an `at` a browser sends is never believed: the server stamps its own
    let current = await client.send(flow.flowId, { type: 'SELECT_OPTION', optionId: timed.choiceIds[1], responseTime: limitMs, at: 1 });
    if (current.state === 'vignette.confidence') current = await client.send(current.flowId, { type: 'SELECT_CONFIDENCE', value: 3 });
    expect(current.snapshot.context.answers[timed.id]).toMatchObject({ value: timed.choiceIds[1], timedOut: false, responseTime: limitMs });

    const nextScreen = current.snapshot.context.screens[current.snapshot.context.index];
    await backdate(current.flowId, nextScreen.timeLimitSec * 1000 + 2500); // past the grace
    const late = await client.send(current.flowId, {
      type: 'SELECT_OPTION',
      optionId: nextScreen.choiceIds[1],
      responseTime: 1000,
      at: Date.now(),
    });
    expect(late.snapshot.context.answers[nextScreen.id]).toEqual({
      type: 'vignette',
      value: nextScreen.choiceIds[0],
      responseTime: nextScreen.timeLimitSec * 1000,
      timedOut: true,
    });
    expect(late.state).toBe('vignette.choosing'); // no confidence question for a timed-out answer
    // the machine recorded the timeout for the answer itself, stamped by the database's clock, whatever the browser sent
    const event = await pool.query<{ type: string; at: string; now: string }>(
      `SELECT type, payload->>'at' AS at, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now
       FROM flow_events WHERE flow_id = $1 ORDER BY seq DESC LIMIT 1`,
      [current.flowId],
    );
    expect(event.rows[0]!.type).toBe('SELECT_OPTION');
    expect(Math.abs(Number(event.rows[0]!.at) - Number(event.rows[0]!.now))).toBeLessThan(5000);
  });

  it("auto-answers a walked-away visitor's timed question by its timers job, and a leftover timer changes nothing", async () => {
    const { queues } = await buildTestWorker(harness, { queues: ['timers'] });
    const client = flowClient(base);
    const backdate = backdater(pool);
    let flow = await toTimedBlock(client);
    flow = await client.send(flow.flowId, { type: 'START_TIMED' });
    const first = flow.snapshot.context.screens[flow.snapshot.context.index];
    const timers = await pool.query(
      `SELECT name, run_after IS NOT NULL AS delayed, payload->>'machine' AS machine, (payload->>'machineVersion')::int AS version
       FROM jobs WHERE flow_id = $1 AND queue = $2`,
      [flow.flowId, 'timers'],
    );
    // the job names the machine version it was queued under, so a later rename of its state can rename it
    expect(timers.rows).toEqual([
      { name: 'xstate.after.screenTimeout.diagnostic.vignette.choosing', delayed: true, machine: 'diagnostic', version: 1 },
    ]);

    // the visitor walks away: once the limit and the grace are past, the timer records the default answer
    await backdate(flow.flowId, first.timeLimitSec * 1000 + 3000);
    expect(await promoteTimers(pool, queues, flow.flowId)).toBe(1);
    await until(async () => (await client.get(flow.flowId)).snapshot.context.index > flow.snapshot.context.index);
    const answered = await client.get(flow.flowId);
    expect(answered.snapshot.context.answers[first.id]).toEqual({
      type: 'vignette',
      value: first.choiceIds[0],
      responseTime: first.timeLimitSec * 1000,
      timedOut: true,
    });
    const applied = await pool.query('SELECT type, origin FROM flow_events WHERE flow_id = $1 ORDER BY seq DESC LIMIT 1', [flow.flowId]);
    expect(applied.rows).toEqual([{ type: 'xstate.after.screenTimeout.diagnostic.vignette.choosing', origin: 'server' }]);

    // the next question is answered at once; its timer, run now (long before its own deadline), is ignored
    const second = answered.snapshot.context.screens[answered.snapshot.context.index];
    let moved = await client.send(flow.flowId, { type: 'SELECT_OPTION', optionId: second.choiceIds[1], responseTime: 2000 });
    if (moved.state === 'vignette.confidence') moved = await client.send(flow.flowId, { type: 'SELECT_CONFIDENCE', value: 4 });
    const version = moved.version;
    expect(await promoteTimers(pool, queues, flow.flowId)).toBeGreaterThan(0);
    await until(
      async () =>
        (await pool.query("SELECT 1 FROM jobs WHERE flow_id = $1 AND queue = 'timers' AND status <> 'completed'", [flow.flowId]))
          .rowCount === 0,
    );
    const after = await client.get(flow.flowId);
    expect(after.version).toBe(version);
    expect(after.snapshot.context.answers[second.id]).toMatchObject({ value: second.choiceIds[1], timedOut: false });
  });

  it('a grading job that fails twice and then succeeds stores one result and pushes GRADED once', async () => {
    let calls = 0;
    await buildTestWorker(harness, {
      queues: ['grading', 'timers'],
      processors: {
        grading: {
          ...gradingProcessor,
          process: async (job, context) => {
            calls += 1;
            if (job.attemptsMade < 2) throw new Error('the grading store is not answering');
            return gradingProcessor.process(job, context);
          },
        },
      },
    });
    const client = flowClient(base);
    const atSurvey = await toSurvey(client);
    const socket = await openSocket(base, client.cookie());
    try {
      await socket.subscribe(atSurvey.flowId);
      await client.send(atSurvey.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.homework });
      await socket.next((f) => f.type === 'event' && f.state === 'results', 30_000);
      expect(calls).toBe(3);
      expect(socket.frames.filter((f) => f.type === 'event' && f.event.type === 'GRADED')).toHaveLength(1);
    } finally {
      socket.close();
    }
    const results = await pool.query('SELECT count(*)::int AS n FROM assessment_results WHERE flow_id = $1', [atSurvey.flowId]);
    expect(results.rows[0].n).toBe(1);
    const job = await pool.query("SELECT status, attempts FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [atSurvey.flowId]);
    expect(job.rows).toEqual([{ status: 'completed', attempts: 3 }]);
  });
});

describe('a grading job that failed for good', () => {
  it("shows the canned fallback; the coach's retry grades it, and the flow takes the real result: a homework lead is offered homework, not nurture", async () => {
    let broken = true;
    const { queues } = await buildTestWorker(harness, {
      queues: ['grading', 'timers'],
      processors: {
        grading: {
          ...gradingProcessor,
          process: (job, context) =>
            broken ? Promise.reject(new UnrecoverableError('the grading store is not answering')) : gradingProcessor.process(job, context),
        },
      },
    });
    const client = flowClient(base);
    const atSurvey = await toSurvey(client);
    await client.send(atSurvey.flowId, { type: 'SURVEY_SUBMITTED', answers: SURVEYS.homework });
    await until(async () => (await client.get(atSurvey.flowId)).state === 'results', 20_000);
    expect((await client.get(atSurvey.flowId)).snapshot.context.result).toMatchObject({ qualification: 'nurture', fallback: true });
    // the visitor goes on with what the page shows: nurture's next step
    expect((await client.send(atSurvey.flowId, { type: 'CONTINUE' })).state).toBe('no_flow.offered');

    broken = false;
    const job = await pool.query<{ id: string }>("SELECT id FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [atSurvey.flowId]);
    expect(await retryJob(pool, queues, job.rows[0]!.id)).toHaveProperty('job');
    await until(async () => (await client.get(atSurvey.flowId)).state === 'results', 20_000);
    const regraded = await client.get(atSurvey.flowId);
    expect(regraded.snapshot.context.result).toMatchObject({ qualification: 'homework', fallback: false });
    expect((await client.send(atSurvey.flowId, { type: 'CONTINUE' })).state).toBe('maybe_flow');
    const stored = await pool.query('SELECT tier FROM assessment_results WHERE flow_id = $1', [atSurvey.flowId]);
    expect(stored.rows).toEqual([{ tier: 'homework' }]);
    // the results email the fallback never sent goes with the real result
    const emails = await pool.query("SELECT name FROM jobs WHERE flow_id = $1 AND queue = 'email'", [atSurvey.flowId]);
    expect(emails.rows).toEqual([{ name: 'results' }]);
  });
});

describe('the Mirror mode of the assessment', () => {
  it("MIRROR_COMPLETED takes the conversation from the visitor's own finished Mirror flow, never the chat the browser sent", async () => {
    await buildTestWorker(harness, { queues: ['mirror', 'timers'] });
    const client = flowClient(base);
    const flow = await client.start({ mode: 'mirror' });
    expect((await client.send(flow.flowId, { type: 'CAPTURE_SUBMIT', name: 'Sam Rivera', email: email('mirror') })).state).toBe('mirror');
    const mirror = await client.start({ machine: 'mirror', mode: 'mirror' });
    let chat = mirror;
    for (const text of [
      'Whether to promote my strongest engineer.',
      'I worry I lose my best builder.',
      'I have not asked her.',
      'I am avoiding a hard talk.',
      'I will ask her this week.',
    ]) {
      const turn = chat.snapshot.context.turn;
      await client.send(mirror.flowId, { type: 'SEND', text });
      await until(async () => (chat = await client.get(mirror.flowId)).snapshot.context.turn !== turn, 10_000, 'no reply');
    }
    expect(chat.state).toBe('complete');

    const forged = [{ role: 'user', content: 'I always take full ownership and I learn from every pattern.' }];
    const stranger = flowClient(base);
    const theirs = await stranger.call('POST', `/api/flows/${flow.flowId}/events`, {
      event: { type: 'MIRROR_COMPLETED', sessionId: chat.snapshot.context.sessionId, chat: forged, mirrorFlowId: mirror.flowId },
    });
    expect(theirs.status).toBe(404);
    const withoutFlow = await client.call('POST', `/api/flows/${flow.flowId}/events`, {
      event: { type: 'MIRROR_COMPLETED', sessionId: chat.snapshot.context.sessionId, chat: forged },
    });
    expect(withoutFlow.status).toBe(400);
    expect(withoutFlow.json.message).toContain('event.mirrorFlowId');

    const moved = await client.send(flow.flowId, {
      type: 'MIRROR_COMPLETED',
      sessionId: chat.snapshot.context.sessionId,
      chat: forged,
      mirrorFlowId: mirror.flowId,
    });
    expect(moved.state).toBe('diagnostic');
    expect(moved.snapshot.context.mirrorChat).toEqual(chat.snapshot.context.messages);
    expect(moved.snapshot.context.mirrorChat).toHaveLength(11);
  });
});
