import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { initialTransition, transition, type AnyStateMachine } from 'xstate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSurvey, gamingResult, resultFor, sampleAnswers } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { diagnosticScreens, type Screen } from '#machines/content/index.js';
import { flowMachineVersions } from '#machines/flow-versions.js';
import { flowMachines } from '#machines/index.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { Tier } from '#machines/protocol/common.js';
import { signedInAdmin } from '#test/admin-session.js';
import { storeProgressFromEvents } from '#test/flow-progress.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';

/*
 * Drop-off per screen over journeys driven through the real machines and stored as the engine
 * stores them (the flow at its state, one flow_events row per applied event with its state_after).
 * A database of its own: the counts cover every flow.
 */

type Event = { type: string; [key: string]: unknown };

const DAY = 86_400_000;
const EAST = 'Pacific/Kiritimati';
const WEST = 'Pacific/Pago_Pago';

let app: FastifyInstance;
let pool: pg.Pool;
let adminHeaders: Record<string, string>;
let harness: TestApp;

/**
 * Moves a flow of `machine` through `events` and stores it: each event must be one its state
 * takes (the engine stores no other). `stateAfter` replaces what an event's row records, for a
 * row an older machine version wrote.
 */
async function journey(
  machineName: FlowMachineName,
  events: Event[],
  options: { input?: unknown; testing?: boolean; ageMs?: number; stateAfter?: Record<number, string> } = {},
): Promise<string> {
  const machine = flowMachines[machineName] as AnyStateMachine;
  let [snapshot] = initialTransition(machine, options.input ?? {});
  const rows = events.map(({ type, ...payload }, index) => {
    const [next, actions] = transition(machine, snapshot, { type, ...payload });
    if (next === snapshot && actions.length === 0) throw new Error(`${type} is not taken in ${statePath(snapshot.value)}`);
    snapshot = next;
    return { type, payload: JSON.stringify(payload), state: options.stateAfter?.[index] ?? statePath(next.value) };
  });
  const createdAt = new Date(Date.now() - (options.ageMs ?? 60_000));
  const flow = await pool.query<{ id: string }>(
    `INSERT INTO flows (machine, state, snapshot, version, testing, created_at, machine_version)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      machineName,
      statePath(snapshot.value),
      machine.getPersistedSnapshot(snapshot),
      events.length,
      options.testing ?? false,
      createdAt,
      flowMachineVersions[machineName].current,
    ],
  );
  const flowId = flow.rows[0]!.id;
  await pool.query(
    `INSERT INTO flow_events (flow_id, seq, type, payload, origin, state_after, created_at)
     SELECT $1, n, type, payload, 'client', state, $5 FROM unnest($2::text[], $3::jsonb[], $4::text[]) WITH ORDINALITY AS e(type, payload, state, n)`,
    [flowId, rows.map((row) => row.type), rows.map((row) => row.payload), rows.map((row) => row.state), createdAt],
  );
  await storeProgressFromEvents(pool); // the engine keeps it as it applies each event; these rows were written directly
  return flowId;
}

/** The events that answer `screen` (a vignette by its second option, then its confidence). */
function answer(screen: Screen): Event[] {
  switch (screen.type) {
    case 'likert':
      return [{ type: 'ANSWER_LIKERT', value: 4, responseTime: 3000 }];
    case 'ranking':
      // a reorder moves no screen on
      return [
        { type: 'REORDER_RANKING', order: [...screen.choiceIds].reverse() },
        { type: 'CONFIRM_RANKING', responseTime: 9000 },
      ];
    case 'vignette':
      return [
        { type: 'SELECT_OPTION', optionId: screen.choiceIds[1]!, responseTime: 8000 },
        ...(screen.hasFollowup ? [{ type: 'SELECT_CONFIDENCE', value: 3 }] : []),
      ];
  }
}

const TIMED_FROM = diagnosticScreens.findIndex((screen) => screen.type === 'vignette');

/** The events that answer the first `count` screens, leaving Timed Questions Ahead when it comes. */
function answered(count: number): Event[] {
  return diagnosticScreens
    .slice(0, count)
    .flatMap((screen, index) => [...(index === TIMED_FROM ? [{ type: 'START_TIMED' }] : []), ...answer(screen)]);
}

/** Every screen answered, the first vignette by its timer. */
const timedOutOnce: Event[] = [
  ...answered(TIMED_FROM),
  { type: 'START_TIMED' },
  { type: 'xstate.after.screenTimeout.diagnostic.vignette.choosing' },
  ...diagnosticScreens.slice(TIMED_FROM + 1).flatMap(answer),
];

/** From the details form to `tier`'s results. */
function toResults(tier: Tier | 'gaming'): Event[] {
  return [
    { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email: 'ada@example.com' },
    { type: 'LEAD_SAVED', leadId: randomUUID() },
    { type: 'START_DIAGNOSTIC' },
    { type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers },
    { type: 'SURVEY_SUBMITTED', answers: completeSurvey },
    { type: 'GRADED', result: tier === 'gaming' ? gamingResult() : resultFor(tier) },
  ];
}

const toBookingPage: Event[] = [
  ...toResults('book_call'),
  { type: 'CONTINUE' },
  { type: 'PAY_DEPOSIT' },
  { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_test_dropoff' },
  { type: 'BOOK_SESSION' },
];

function asAdmin(options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, ...adminHeaders } });
}

async function dropoff(query: string) {
  const response = await asAdmin({ method: 'GET', url: `/api/admin/overview/dropoff?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** step: [reached, stopped] for every step, in order. */
function counts(journey: { steps: Array<{ step: string; reached: number; stopped: number }> }): Record<string, [number, number]> {
  return Object.fromEntries(journey.steps.map(({ step, reached, stopped }) => [step, [reached, stopped]]));
}

/** The calendar day of an instant in a time zone, by Intl rather than PostgreSQL. */
function localDay(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  ({ headers: adminHeaders } = await signedInAdmin(pool));

  // diagnostics: finished in the modal (a vignette answered by its timer) and standalone (graded)
  await journey('diagnostic', timedOutOnce, { input: { screens: diagnosticScreens } });
  await journey(
    'diagnostic',
    [...answered(diagnosticScreens.length), { type: 'GRADED', result: { archetype: 'Visionary Firebrand', narrative: '', scores: {} } }],
    { input: { screens: diagnosticScreens, standalone: true } },
  );
  // stopped: on the first screen, on the sixth, at Timed Questions Ahead, at the first vignette's confidence
  await journey('diagnostic', [], { input: { screens: diagnosticScreens } });
  await journey('diagnostic', answered(5), { input: { screens: diagnosticScreens } });
  await journey('diagnostic', answered(TIMED_FROM), { input: { screens: diagnosticScreens } });
  await journey('diagnostic', [...answered(TIMED_FROM), { type: 'START_TIMED' }, answer(diagnosticScreens[TIMED_FROM]!)[0]!], {
    input: { screens: diagnosticScreens },
  });
  // left out of the last 7 days: a test flow, and one 10 days old stopped on the second screen
  await journey('diagnostic', answered(2), { input: { screens: diagnosticScreens }, testing: true });
  await journey('diagnostic', answered(1), { input: { screens: diagnosticScreens }, ageMs: 10 * DAY });

  // assessments: the three ends
  await journey('assessmentFlow', [...toBookingPage, { type: 'SESSION_BOOKED', provider: 'calendly', startsAt: null }]);
  await journey('assessmentFlow', [
    ...toResults('homework'),
    { type: 'CONTINUE' },
    { type: 'CHOOSE_FREE_RESOURCES' },
    { type: 'HOMEWORK_SENT' },
    { type: 'VIEW_RESULTS' },
  ]);
  await journey('assessmentFlow', [...toResults('nurture'), { type: 'CONTINUE' }, { type: 'JOIN_COMMUNITY' }]);
  // back and forth between the results and the deposit offer, stopped at the offer
  await journey('assessmentFlow', [
    ...toResults('book_call'),
    ...Array.from({ length: 2 }, () => [{ type: 'CONTINUE' }, { type: 'BACK_TO_RESULTS' }]).flat(),
    { type: 'CONTINUE' },
  ]);
  // stopped: at the community offer, the details form (no event yet), the survey, and the email a
  // standalone diagnostic's survey asks for (the flow opened on the survey)
  await journey('assessmentFlow', [...toResults('nurture'), { type: 'CONTINUE' }]);
  await journey('assessmentFlow', []);
  await journey('assessmentFlow', toResults('book_call').slice(0, 4));
  await journey('assessmentFlow', [{ type: 'SURVEY_SUBMITTED', answers: completeSurvey }], {
    input: { standaloneDiagnostic: { id: randomUUID(), answers: sampleAnswers } },
  });
  // version 1 recorded the booking page opened as payment_success.booked (the flow itself was moved up)
  await journey('assessmentFlow', toBookingPage, { stateAfter: { [toBookingPage.length - 1]: 'payment_success.booked' } });
  // asked to retake, back at the diagnostic
  await journey('assessmentFlow', [...toResults('gaming'), { type: 'RETAKE' }]);
  // a returning visitor's results shown again: no step of the journey
  await journey('assessmentFlow', [], { input: { storedResult: resultFor('nurture'), storedPath: { kind: 'community_joined' } } });
  // left out of the last 7 days: a test flow, and one 10 days old stopped at the deposit offer
  await journey('assessmentFlow', [...toResults('book_call'), { type: 'CONTINUE' }], { testing: true });
  await journey('assessmentFlow', [...toResults('book_call'), { type: 'CONTINUE' }], { ageMs: 10 * DAY });
});

afterAll(() => harness?.close());

describe('GET /api/admin/overview/dropoff', () => {
  it('counts each diagnostic flow once per screen it reached and where it stopped', async () => {
    const { diagnostic, period, timeZone } = await dropoff('period=7d&tz=UTC');
    expect({ period, timeZone }).toEqual({ period: '7d', timeZone: 'UTC' });
    const ids = diagnosticScreens.map((screen) => screen.id);
    expect(diagnostic.steps.map((step: { step: string }) => step.step)).toEqual([
      ...ids.slice(0, TIMED_FROM),
      'interstitial',
      ...ids.slice(TIMED_FROM),
    ]);
    expect(diagnostic.steps.every((step: { end: boolean }) => !step.end)).toBe(true);
    expect(diagnostic.started).toBe(6);
    const expected: Record<string, [number, number]> = {};
    ids.forEach((id, index) => {
      if (index === 0) expected[id] = [6, 1];
      else if (index < 5) expected[id] = [5, 0];
      else if (index === 5) expected[id] = [5, 1];
      else if (index < TIMED_FROM) expected[id] = [4, 0];
      else if (index === TIMED_FROM) expected[id] = [3, 1];
      else expected[id] = [2, 0];
    });
    expected.interstitial = [4, 1];
    expect(counts(diagnostic)).toEqual(expected);
    // the 22 screens of the bank, the vignettes last
    expect(ids).toHaveLength(22);
    expect(TIMED_FROM).toBe(18);
  });

  it('follows the assessment through its branches: a flow counts once per step, never at a branch it did not take', async () => {
    const { assessment } = await dropoff('period=7d&tz=UTC');
    expect(assessment.started).toBe(10);
    expect(counts(assessment)).toEqual({
      capture: [9, 1],
      intro: [8, 0],
      mirror: [0, 0],
      diagnostic: [8, 1],
      survey: [9, 1],
      email_capture: [1, 1],
      processing: [7, 0],
      gaming_detected: [1, 0],
      results: [6, 0],
      yes_flow: [3, 1],
      payment: [2, 0],
      'payment_success.confirmed': [2, 0],
      'payment_success.booking_opened': [2, 1],
      'payment_success.booked': [1, 0],
      maybe_flow: [1, 0],
      'homework_processing.sending': [1, 0],
      'homework_processing.sent': [1, 0],
      'no_flow.offered': [2, 1],
      'no_flow.joined': [1, 0],
    });
    const ends = assessment.steps.filter((step: { end: boolean }) => step.end).map((step: { step: string }) => step.step);
    expect(ends).toEqual(['payment_success.booked', 'homework_processing.sent', 'no_flow.joined']);
    // every flow that reached a step either stopped somewhere or got to an end
    const stopped = assessment.steps.reduce((sum: number, step: { stopped: number }) => sum + step.stopped, 0);
    expect(stopped + 3).toBe(assessment.started);
  });

  it('takes the flows started in the period, in the admin time zone, test flows never', async () => {
    const month = await dropoff('period=30d&tz=UTC');
    expect(month.diagnostic.started).toBe(7);
    expect(counts(month.diagnostic)).toMatchObject({ [diagnosticScreens[0]!.id]: [7, 1], [diagnosticScreens[1]!.id]: [6, 1] });
    expect(month.assessment.started).toBe(11);
    expect(counts(month.assessment)).toMatchObject({ capture: [10, 1], results: [7, 0], yes_flow: [4, 2] });
    expect((await dropoff('period=all&tz=UTC')).assessment).toEqual(month.assessment);

    // a flow started six and a half days ago is in the last 7 days where that was six days back or fewer
    const edge = Date.now() - 6.5 * DAY;
    await journey('assessmentFlow', [], { ageMs: 6.5 * DAY });
    for (const timeZone of [EAST, WEST]) {
      const answer = await dropoff(`period=7d&tz=${encodeURIComponent(timeZone)}`);
      const inPeriod = localDay(edge, timeZone) >= answer.from;
      expect(answer.timeZone).toBe(timeZone);
      expect(answer.to).toBe(localDay(Date.now(), timeZone));
      expect(answer.assessment.started, timeZone).toBe(inPeriod ? 11 : 10);
    }
  });

  it('refuses a bad period or time zone with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['period=90d', 'period'],
      ['period=', 'period'],
      ['tz=Mars/Olympus_Mons', 'tz'],
      ["tz=UTC'--", 'tz'],
      ['tz=', 'tz'],
    ] as const) {
      const response = await asAdmin({ method: 'GET', url: `/api/admin/overview/dropoff?${query}` });
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.json().fields, query).toHaveProperty(field);
    }
  });

  it('answers 401 without a session and 403 to a signed-in user who is not an admin', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/admin/overview/dropoff' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    // only the admin role exists today; a second one (in this file's own database) shows the guard refuses any other
    await pool.query('ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check');
    const member = await signedInAdmin(pool, { role: 'member' });
    const refused = await app.inject({ method: 'GET', url: '/api/admin/overview/dropoff', headers: member.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This needs an admin account.');
  });
});
