import WebSocket from 'ws';
import { frameText } from '#server/sockets/frames.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { SURVEYS } from '#test/journey.js';
import type { SeededFlow } from './seed.js';
import { loadAgent, rawRequest } from './raw-request.js';
import { measure, type RunStats } from './stats.js';

/**
 * What the load generator reads of a frame the server pushes: only what tells it the flow was
 * graded (the protocol itself is checked by the socket's tests, not here, where parsing each
 * snapshot with its schema would be this client's work on the server's cores).
 */
type PushedFrame = { type: string; event?: { type: string } };

/**
 * One visitor's browser, for one flow: its own cookie and its own client address (the server
 * trusts one proxy here, so each simulated visitor is counted by the per-address limits on its
 * own, as real visitors are), and its socket subscribed to the flow before anything is timed.
 */
async function visitorBrowser(base: string, flow: SeededFlow, address: string) {
  const headers = { cookie: `${VISITOR_COOKIE}=${flow.visitorCookie}`, 'x-forwarded-for': address };
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, { headers });
  let waiter: ((frame: PushedFrame) => void) | null = null;
  socket.on('message', (raw) => waiter?.(JSON.parse(frameText(raw)) as PushedFrame));
  await new Promise<void>((resolve, reject) => socket.once('open', () => resolve()).once('error', reject));
  const when = (match: (frame: PushedFrame) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no push for ${flow.flowId} within 60 s`)), 60_000);
      waiter = (frame) => {
        if (frame.type === 'error') reject(new Error(JSON.stringify(frame)));
        if (!match(frame)) return;
        clearTimeout(timer);
        resolve();
      };
    });
  const subscribed = when((frame) => frame.type === 'subscribed');
  socket.send(JSON.stringify({ type: 'subscribe', flowId: flow.flowId }));
  await subscribed;
  return { headers, graded: () => when((frame) => frame.type === 'event' && frame.event?.type === 'GRADED'), close: () => socket.close() };
}

/** A loopback-only label for the n-th simulated visitor's address (never dialled: a header value). */
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/**
 * (b) This product's path for one flow standing at the survey: POST SURVEY_SUBMITTED, the grading
 * job runs (outbox, relay, BullMQ, grading transaction), the GRADED push arrives on the socket of
 * the flow's own browser, already subscribed when it submits, as a real one would be.
 */
export async function gradedFlows(
  base: string,
  label: string,
  flows: SeededFlow[],
  concurrency: number,
  firstVisitor = 0,
): Promise<RunStats> {
  const agent = loadAgent(concurrency);
  const run = await measure(label, flows.length, concurrency, async (index) => {
    const flow = flows[index]!;
    const browser = await visitorBrowser(base, flow, addressOf(firstVisitor + index));
    try {
      const graded = browser.graded();
      const started = performance.now();
      const response = await rawRequest(`${base}/api/flows/${flow.flowId}/events`, {
        agent,
        method: 'POST',
        headers: { ...browser.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ event: { type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call } }),
      });
      if (response.status !== 200) throw new Error(`survey for ${flow.flowId}: ${response.status} ${response.body.toString()}`);
      await graded;
      return performance.now() - started;
    } finally {
      browser.close();
    }
  });
  agent.destroy();
  return run;
}
