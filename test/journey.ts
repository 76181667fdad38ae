import type pg from 'pg';
import WebSocket from 'ws';
import { diagnosticScreens } from '#machines/content/index.js';
import type { DiagnosticAnswers, RecordedAnswer } from '#machines/protocol/common.js';
import type { FlowSocketServerFrame } from '#machines/protocol/socket.js';
import { frameText } from '#server/sockets/frames.js';
import type { Queues } from '#core/queues/queues.js';
import { until } from './until.js';
import { browserFetch } from './visitor.js';

/**
 * A JSON body as the tests read it: untyped, and asserted on directly (eslint.config.js turns the
 * no-unsafe-* rules off for tests for the same reason).
 */
export type TestJson = any;

/** A flow as the API answers it (loosely typed for tests). */
export interface FlowJson {
  flowId: string;
  machine: string;
  version: number;
  state: string;
  snapshot: { value: unknown; context: Record<string, TestJson> };
}

/** Survey answers that grade to each tier with the steady diagnostic answers below. */
export const SURVEYS = {
  book_call: {
    q1_investment: 'ready_now',
    q2_time: 'start_immediately',
    q3_urgency: 'critical',
    q4_mindset: 'challenge',
    q5_success: 'A team that decides well without me in the room.',
  },
  homework: {
    q1_investment: 'payment_terms',
    q2_time: 'start_30_days',
    q3_urgency: 'important',
    q4_mindset: 'tools',
    q5_success: 'Delegating without losing sleep.',
  },
  nurture: {
    q1_investment: 'need_time',
    q2_time: 'not_3_months',
    q3_urgency: 'exploring',
    q4_mindset: 'skeptical',
    q5_success: 'Not sure yet.',
  },
} as const;

/** Every diagnostic screen answered steadily and thoughtfully (no straight line, no rushing). */
export function steadyAnswers(): DiagnosticAnswers {
  return Object.fromEntries(
    diagnosticScreens.map((screen, index): [string, RecordedAnswer] => [
      screen.id,
      screen.type === 'likert'
        ? { type: 'likert', value: [3, 2, 3, 3][index % 4]!, responseTime: 6000, timedOut: false }
        : screen.type === 'vignette'
          ? { type: 'vignette', value: screen.choiceIds[0]!, confidence: 4, responseTime: 9000, timedOut: false }
          : { type: 'ranking', value: screen.choiceIds, responseTime: 9000, timedOut: false },
    ]),
  );
}

/**
 * One visitor's browser over real HTTP at `base` (http://host:port): it keeps the visitor cookie
 * the server issues and sends it back, as a browser does, so two clients are two visitors.
 * `headers` adds headers to every request (e.g. another client address through a trusted proxy).
 */
export function flowClient(base: string, options: { headers?: Record<string, string> } = {}) {
  const browser = browserFetch();
  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: TestJson; headers: Headers }> {
    const response = await browser.fetch(`${base}${path}`, {
      method,
      headers: { ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: TestJson = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: response.status, json, headers: response.headers };
  }
  async function ok(method: string, path: string, body?: unknown): Promise<FlowJson> {
    const answer = await call(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} -> ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json;
  }
  return {
    call,
    /** The Cookie header this visitor sends (for sockets opened on their behalf). */
    cookie: browser.cookieHeader,
    start: (body: Record<string, unknown> = {}) => ok('POST', '/api/flows', body),
    get: (flowId: string) => ok('GET', `/api/flows/${flowId}`),
    send: (flowId: string, event: Record<string, unknown>) => ok('POST', `/api/flows/${flowId}/events`, { event }),
  };
}

/**
 * SQL that makes a diagnostic flow's current screen shown $N ms ago by the server's clock: its
 * snapshot's shownAt, which the machine times answers and timers against. (Tests may write
 * snapshot JSON; server code reads it only through machines/protocol/snapshots.ts.)
 */
export const backdatedSnapshot = (msParam: string) =>
  `jsonb_set(snapshot, '{context,shownAt}', to_jsonb(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - ${msParam}::bigint))`;

/** Makes the server believe the current diagnostic screen was shown `ms` ago (so answers are not "rushed"). */
export function backdater(pool: pg.Pool) {
  return async (flowId: string, ms: number) => {
    await pool.query(`UPDATE flows SET snapshot = ${backdatedSnapshot('$2')} WHERE id = $1`, [flowId, ms]);
  };
}

/**
 * Runs a diagnostic flow's pending screen timers now instead of when BullMQ would (a walked-away
 * visitor, without waiting out the limit): each delayed timers job of the flow is promoted.
 */
export async function promoteTimers(pool: pg.Pool, queues: Queues, flowId: string): Promise<number> {
  const rows = await pool.query<{ id: string }>("SELECT id FROM jobs WHERE flow_id = $1 AND queue = 'timers' AND status <> 'completed'", [
    flowId,
  ]);
  let promoted = 0;
  for (const { id } of rows.rows) {
    const job = await queues.timers.getJob(id);
    if (job && (await job.isDelayed())) {
      await job.promote();
      promoted += 1;
    }
  }
  return promoted;
}

/**
 * Answers a server-run diagnostic screen by screen: likert values that vary (no straight line),
 * each vignette's first option with confidence 4, the ranking as offered. With `thinkMs`, every
 * screen is backdated so the server measures that long; without, the answers arrive as fast as
 * the network allows, which the server's stamps expose as rushing.
 */
export async function runDiagnostic(
  client: ReturnType<typeof flowClient>,
  options: { backdate?: (flowId: string, ms: number) => Promise<void>; thinkMs?: number } = {},
): Promise<FlowJson> {
  let flow = await client.start({ machine: 'diagnostic' });
  const think = options.thinkMs ?? 0;
  for (let step = 0; step < 200 && flow.state !== 'done'; step++) {
    const { context } = flow.snapshot;
    const screen = context.screens[context.index];
    if (think && options.backdate && flow.state !== 'vignette.confidence') await options.backdate(flow.flowId, think);
    if (flow.state === 'interstitial') flow = await client.send(flow.flowId, { type: 'START_TIMED' });
    else if (flow.state === 'likert')
      flow = await client.send(flow.flowId, { type: 'ANSWER_LIKERT', value: [3, 2, 3, 3][context.index % 4], responseTime: think });
    else if (flow.state === 'vignette.choosing')
      flow = await client.send(flow.flowId, { type: 'SELECT_OPTION', optionId: screen.choiceIds[0], responseTime: think });
    else if (flow.state === 'vignette.confidence') flow = await client.send(flow.flowId, { type: 'SELECT_CONFIDENCE', value: 4 });
    else if (flow.state === 'ranking') flow = await client.send(flow.flowId, { type: 'CONFIRM_RANKING', responseTime: think });
    else throw new Error(`unexpected diagnostic state ${flow.state}`);
  }
  return flow;
}

/** A websocket on /api/ws that collects every frame, opened as the visitor whose Cookie header is given. */
export async function openSocket(base: string, cookie = '') {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, cookie ? { headers: { cookie } } : {});
  const frames: FlowSocketServerFrame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(frameText(raw))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  /** Resolves with the first frame (already received or to come) that matches. */
  async function next(match: (frame: FlowSocketServerFrame) => boolean, timeoutMs = 20_000): Promise<FlowSocketServerFrame> {
    const seen = () => JSON.stringify(frames.map((f) => (f.type === 'event' ? `${f.type}:${f.event.type}:${f.state}` : f.type)));
    await until(() => frames.some(match), timeoutMs).catch(() => {
      throw new Error(`no matching frame; got ${seen()}`);
    });
    return frames.find(match)!;
  }
  async function subscribe(flowId: string) {
    socket.send(JSON.stringify({ type: 'subscribe', flowId }));
    await next((frame) => frame.type === 'subscribed' && frame.flowId === flowId);
  }
  return { socket, frames, next, subscribe, close: () => socket.close() };
}

/**
 * Capture (through createOrUpdateLead), the server-timed diagnostic, and the survey's doorstep,
 * for one visitor's browser: the lead and flow it reached the survey on.
 */
export async function toSurveyStep(browser: ReturnType<typeof flowClient>, pool: pg.Pool, email: string, name = 'Avery Quinn') {
  const lead = await browser.call('POST', '/api/leads', { email, name });
  if (lead.status !== 200) throw new Error(`POST /api/leads -> ${lead.status} ${JSON.stringify(lead.json)}`);
  await browser.send(lead.json.flowId, { type: 'START_DIAGNOSTIC' });
  const diagnostic = await runDiagnostic(browser, { backdate: backdater(pool), thinkMs: 6000 });
  const atSurvey = await browser.send(lead.json.flowId, { type: 'DIAGNOSTIC_COMPLETED', answers: {}, diagnosticFlowId: diagnostic.flowId });
  if (atSurvey.state !== 'survey') throw new Error(`Expected the survey, the flow is at ${atSurvey.state}`);
  return { leadId: lead.json.leadId as string, flowId: lead.json.flowId as string, email };
}
