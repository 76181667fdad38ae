import { EXPECTED_VERSION_HEADER } from '#machines/protocol/api.js';
import { VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';
import { SURVEYS } from '#test/journey.js';
import type { SeededFlow } from '../bench/seed.js';

/** Where each journey is meant to end, by its path through the funnel. */
type JourneyPath = 'deposit' | 'paid_homework' | 'free_resources' | 'community';

/** The final state each path reaches, and the events that take a flow there from its next step. */
const PATHS: Record<JourneyPath, { tier: keyof typeof SURVEYS; step: { type: string }; done: string }> = {
  deposit: { tier: 'book_call', step: { type: 'PAY_DEPOSIT' }, done: 'payment_success.confirmed' },
  paid_homework: { tier: 'homework', step: { type: 'PAY_FOR_HOMEWORK' }, done: 'payment_success.confirmed' },
  free_resources: { tier: 'homework', step: { type: 'CHOOSE_FREE_RESOURCES' }, done: 'homework_processing.sent' },
  community: { tier: 'nurture', step: { type: 'JOIN_COMMUNITY' }, done: 'no_flow.joined' },
};

const pathOf = (index: number): JourneyPath => (['deposit', 'free_resources', 'community', 'paid_homework'] as const)[index % 4]!;

/** A loopback-only label for the n-th visitor's address (an X-Forwarded-For value, never dialled). */
export const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export interface JourneyOutcome {
  flowId: string;
  path: JourneyPath;
  state: string;
  done: boolean;
  /** Requests that failed (no answer, 5xx, 429) and were sent again. */
  retries: number;
  /** From the survey's first submission until the flow showed its result (ms), when it did. */
  resultWaitMs: number | null;
  /** The last refusal of an event it sent (status and message), to say why a journey did not finish. */
  lastRefusal: string | null;
}

/**
 * One visitor's browser on a seeded flow standing at the survey: it submits the survey for its
 * path's tier, waits for the results, continues to the next step and takes it, and keeps trying
 * through whatever the faults do (no answer, 503, a 409 because its last try did land), the way
 * the site's own client retries. Like it, each event carries the version it was read at (in the body
 * and the header that lets the proxy resend it when its server dies mid-way). It ends when the flow stands at its path's final state, or at
 * the deadline.
 */
export async function runJourney(
  base: string,
  flow: SeededFlow,
  index: number,
  deadline: number,
  onServerError: (status: number) => void = () => {},
): Promise<JourneyOutcome> {
  const path = pathOf(index);
  const plan = PATHS[path];
  const headers = {
    cookie: `${VISITOR_COOKIE}=${flow.visitorCookie}`,
    'x-forwarded-for': addressOf(index),
    'content-type': 'application/json',
  };
  let retries = 0;
  let state = 'survey';
  let version: number | null = null;
  let submittedAt: number | null = null;
  let resultWaitMs: number | null = null;
  let lastRefusal: string | null = null;

  const read = async (): Promise<{ state: string; version: number } | null> => {
    try {
      const response = await fetch(`${base}/api/flows/${flow.flowId}`, { headers, signal: AbortSignal.timeout(10_000) });
      if (response.status >= 500) onServerError(response.status);
      return response.ok ? ((await response.json()) as { state: string; version: number }) : null;
    } catch {
      return null;
    }
  };
  const send = async (event: object): Promise<void> => {
    const expected: Record<string, string> = version === null ? {} : { [EXPECTED_VERSION_HEADER]: String(version) };
    try {
      const response = await fetch(`${base}/api/flows/${flow.flowId}/events`, {
        method: 'POST',
        headers: { ...headers, ...expected },
        body: JSON.stringify(version === null ? { event } : { event, expectedVersion: version }),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status >= 500) onServerError(response.status);
      if (response.status >= 500 || response.status === 429) retries += 1;
      const text = await response.text();
      if (!response.ok) lastRefusal = `${response.status} ${text.slice(0, 160)}`;
    } catch {
      retries += 1;
    }
  };

  /** The steps in order: which states mean the step is behind us, and the event that takes it. */
  const steps: Array<{ passed: (s: string) => boolean; event: object | null }> = [
    { passed: (s) => s !== 'survey', event: { type: 'SURVEY_SUBMITTED', answers: SURVEYS[plan.tier] } },
    // grading and the 1 s reveal are the server's work: the browser only waits for the results
    { passed: (s) => !s.startsWith('processing'), event: null },
    { passed: (s) => s !== 'results', event: { type: 'CONTINUE' } },
    { passed: (s) => !['yes_flow', 'maybe_flow', 'no_flow.offered'].includes(s), event: plan.step },
  ];
  // a flow whose grading failed twice shows the fallback result, whose offer may be another tier's
  // (the coach's retry replaces the result, not the offer on show): the visitor takes what is offered
  const OFFERED: Record<string, { type: string }> = {
    yes_flow: { type: 'PAY_DEPOSIT' },
    maybe_flow: plan.tier === 'homework' ? plan.step : { type: 'CHOOSE_FREE_RESOURCES' },
    'no_flow.offered': { type: 'JOIN_COMMUNITY' },
  };
  const FINAL = new Set(Object.values(PATHS).map((each) => each.done));
  while (Date.now() < deadline) {
    const current = await read();
    if (current) ({ state, version } = current);
    if (submittedAt !== null && resultWaitMs === null && state !== 'survey' && !state.startsWith('processing'))
      resultWaitMs = Date.now() - submittedAt;
    if (FINAL.has(state)) return { flowId: flow.flowId, path, state, done: true, retries, resultWaitMs, lastRefusal };
    const next = steps.find((step) => !step.passed(state));
    if (next === steps[0]) submittedAt ??= Date.now();
    const event = next && next === steps[3] ? (OFFERED[state] ?? next.event) : next?.event;
    if (event) await send(event);
    await new Promise((resolve) => setTimeout(resolve, event ? 50 : 250));
  }
  return { flowId: flow.flowId, path, state, done: false, retries, resultWaitMs, lastRefusal };
}
