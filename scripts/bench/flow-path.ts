import WebSocket from 'ws';
import { SURVEYS } from '../../test/journey.js';
import { measure, type RunStats } from './stats.js';

/** One browser: a socket on /api/ws that resolves a waiter when its flow's GRADED push arrives. */
async function browserSocket(base: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`);
  const waiters = new Map<string, (frame: { type: string; event?: { type: string } }) => void>();
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString());
    if (frame.flowId) waiters.get(frame.flowId)?.(frame);
  });
  await new Promise<void>((resolve, reject) => socket.once('open', () => resolve()).once('error', reject));
  const when = (flowId: string, match: (frame: { type: string; event?: { type: string } }) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no push for ${flowId} within 60 s`)), 60_000);
      waiters.set(flowId, (frame) => {
        if (frame.type === 'error') reject(new Error(JSON.stringify(frame)));
        if (!match(frame)) return;
        clearTimeout(timer);
        waiters.delete(flowId);
        resolve();
      });
    });
  return {
    async subscribe(flowId: string) {
      const subscribed = when(flowId, (frame) => frame.type === 'subscribed');
      socket.send(JSON.stringify({ type: 'subscribe', flowId }));
      await subscribed;
    },
    graded: (flowId: string) => when(flowId, (frame) => frame.type === 'event' && frame.event?.type === 'GRADED'),
    unsubscribe: (flowId: string) => socket.send(JSON.stringify({ type: 'unsubscribe', flowId })),
    close: () => socket.close(),
  };
}

/**
 * (b) This product's path for one flow standing at the survey: POST SURVEY_SUBMITTED, the grading
 * job runs (outbox, relay, BullMQ, grading transaction), the GRADED push arrives on the socket.
 * Each lane is one browser, already subscribed when it submits, as a real one would be.
 */
export async function gradedFlows(base: string, label: string, flowIds: string[], concurrency: number): Promise<RunStats> {
  const sockets = await Promise.all(Array.from({ length: concurrency }, () => browserSocket(base)));
  try {
    return await measure(label, flowIds.length, concurrency, async (index, lane) => {
      const flowId = flowIds[index]!;
      const socket = sockets[lane]!;
      await socket.subscribe(flowId);
      const graded = socket.graded(flowId);
      const started = performance.now();
      const response = await fetch(`${base}/api/flows/${flowId}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: { type: 'SURVEY_SUBMITTED', answers: SURVEYS.book_call } }),
      });
      if (response.status !== 200) throw new Error(`survey for ${flowId}: ${response.status} ${await response.text()}`);
      await graded;
      const elapsed = performance.now() - started;
      socket.unsubscribe(flowId);
      return elapsed;
    });
  } finally {
    for (const socket of sockets) socket.close();
  }
}
