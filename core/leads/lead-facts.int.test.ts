import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnosticScreens } from '#machines/content/index.js';
import { DEFAULT_GRADING_RULES, type Tier } from '#machines/grading/index.js';
import { DEPOSIT_AMOUNT_CENTS } from '#machines/protocol/payment.js';
import type { Queues } from '#core/queues/queues.js';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { startFakeStripe, type FakeStripe } from '#test/fake-stripe.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';
import { progressFromEvents, storedProgress } from '#test/flow-progress.js';
import { testConfig } from '#test/helpers.js';
import { backdater, flowClient, promoteTimers, SURVEYS, type FlowJson, type TestJson } from '#test/journey.js';
import { bookingReferenceOf, inviteeCreated, postCalendlyEvent } from '#test/scheduling.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';

/*
 * One fact, one author (decision 0036): 54 visitor journeys of every kind run against the real
 * server and workers (through the public HTTP API, the admin API and the providers' signed
 * webhooks), then every admin surface, the results email, the PDF report and the outgoing webhook
 * must say the same of each lead, and the Overview, funnel, drop-off, leads list and CSV must count
 * the same totals for the same filter. Expected values come from what each journey did, so a surface
 * that agrees with the others but not with the journeys fails too.
 *
 * The tests below run in order and share the journeys: the first two drive them (Stripe mode, then
 * a second server without a Stripe key on the same database, for test payments), the third
 * re-grades, the rest check.
 */

const STRIPE_WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const SCHEDULING_KEY = `sched-${randomBytes(12).toString('hex')}`;
/** Journeys driven at once: enough to overlap the workers' jobs, few enough for two shared cores. */
const CONCURRENCY = 6;
/** What the re-grade changes: homework from 61 instead of 50, so some homework leads fall to nurture. */
const REGRADE_HOMEWORK_FROM = 61;

type Next = 'deposit' | 'paid_homework' | 'free_resources' | 'community';

/** What a journey does. Left out: real, Stripe mode, answered thoughtfully, staying at the tier's offer. */
interface Plan {
  /** Which server the visitor uses: Stripe mode, or the one without a Stripe key (test payments). */
  payments?: 'stripe' | 'test';
  /** Test flows: started as one, switched on before capture, or started as one and switched off (a real lead). */
  testing?: 'started' | 'switched_on' | 'switched_off';
  /** Where the visitor leaves before any result. */
  stop?: 'before_capture' | 'after_capture' | 'after_diagnostic';
  /** The survey answers given (SURVEYS), so the tier the result should show. */
  tier?: Tier;
  /** The first diagnostic is rushed: the visitor then stops, retakes and finishes, or retakes and leaves halfway. */
  rushed?: 'stops' | 'retakes' | 'retakes_then_stops';
  /** The follow-up reminder fires while the visitor is inside the diagnostic. */
  reminderMidDiagnostic?: boolean;
  next?: Next;
  booking?: 'booked' | 'canceled_by_lead' | 'canceled_by_coach';
  /** The coach refunds the deposit from the admin. */
  refunded?: boolean;
  /** The reminder to book fires (the deposit is paid and nothing booked). */
  remindedToBook?: boolean;
}

interface Journey {
  index: number;
  plan: Plan;
  /** Names the journey in failure messages. */
  name: string;
  email: string;
  /** The visitor's own client address (each visitor is counted by the rate limits on its own). */
  address: string;
  visitor: ReturnType<typeof flowClient>;
  flowId: string | null;
  leadId: string | null;
  /** Diagnostic flows the visitor started (a retake starts another). */
  diagnosticFlows: number;
  /** The result the modal showed (the GRADED result); null until graded. */
  result: TestJson;
  /** The tier the re-grade gave, when it re-graded this lead. */
  regradedTier: Tier | null;
}

const times = (count: number, plan: Plan): Plan[] => Array.from({ length: count }, () => plan);

const PLANS: Plan[] = [
  ...times(3, { tier: 'book_call' }),
  ...times(3, { tier: 'homework' }),
  ...times(3, { tier: 'nurture' }),
  ...times(2, { tier: 'nurture', next: 'community' }),
  ...times(3, { tier: 'homework', next: 'free_resources' }),
  ...times(2, { tier: 'homework', next: 'paid_homework' }),
  ...times(2, { tier: 'book_call', next: 'deposit' }),
  ...times(3, { tier: 'book_call', next: 'deposit', booking: 'booked' }),
  { tier: 'book_call', next: 'deposit', booking: 'canceled_by_lead' },
  { tier: 'book_call', next: 'deposit', booking: 'canceled_by_coach' },
  ...times(2, { tier: 'book_call', next: 'deposit', refunded: true }),
  ...times(2, { tier: 'book_call', next: 'deposit', booking: 'booked', refunded: true }),
  { tier: 'book_call', next: 'deposit', remindedToBook: true },
  { tier: 'book_call', rushed: 'retakes' },
  { tier: 'homework', rushed: 'retakes' },
  { tier: 'nurture', rushed: 'retakes' },
  ...times(2, { tier: 'book_call', rushed: 'stops' }),
  { tier: 'homework', rushed: 'retakes_then_stops' },
  { tier: 'nurture', reminderMidDiagnostic: true },
  { tier: 'homework', reminderMidDiagnostic: true, next: 'free_resources' },
  ...times(2, { stop: 'after_capture' }),
  { tier: 'nurture', stop: 'after_diagnostic' },
  { tier: 'homework', testing: 'switched_off' },
  ...times(2, { stop: 'before_capture' }),
  { tier: 'book_call', testing: 'started' },
  { tier: 'homework', testing: 'started', next: 'free_resources' },
  { tier: 'nurture', testing: 'started', next: 'community' },
  { tier: 'book_call', testing: 'started', next: 'deposit', booking: 'booked', refunded: true },
  { tier: 'homework', testing: 'switched_on' },
  { tier: 'nurture', testing: 'switched_on' },
  { tier: 'nurture', testing: 'started', rushed: 'stops' },
  { tier: 'homework', testing: 'started', next: 'paid_homework' },
  { payments: 'test', tier: 'book_call', next: 'deposit' },
  { payments: 'test', tier: 'book_call', next: 'deposit', booking: 'booked', refunded: true },
  { payments: 'test', tier: 'homework', next: 'paid_homework' },
  { payments: 'test', tier: 'book_call', testing: 'started', next: 'deposit' },
];

/**
 * Likert answers by screen position and the vignette option taken: varied per journey so leads
 * get different leadership scores, none straight-lined or contradictory (each grades to the tier
 * its survey names; checked by every journey's routing).
 */
const LIKERT_PATTERNS = [
  [3, 2, 3, 3],
  [4, 2, 3, 4],
  [3, 3, 2, 3],
  [4, 3, 4, 2],
  [2, 3, 3, 4],
  [3, 4, 3, 2],
  [4, 4, 3, 3],
  [2, 2, 3, 3],
  [5, 3, 4, 3],
  [3, 2, 4, 4],
];
/** Seconds a thoughtful visitor takes per screen, as the server will measure it. */
const THINK_MS = 6000;
/** How far into the diagnostic the reminder fires, and where a visitor who leaves halfway stops (both before the timed questions). */
const MIDWAY = 6;

let fake: FakeStripe;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
/** Stripe mode against the loopback fake. */
let stripeSite: TestApp;
/** No Stripe key (test payments), on the same database and queues. */
let testPaymentSite: TestApp;
let pool: pg.Pool;
let admin: SignedInAdmin;
const journeys: Journey[] = PLANS.map((plan, index) => newJourney(plan, index));

beforeAll(async () => {
  fake = await startFakeStripe();
  receiver = await webhookReceiver();
  // each visitor comes from its own address, through one trusted proxy hop, as in production
  const env = { TRUST_PROXY_HOPS: '1', WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' };
  stripeSite = await buildTestApp({
    ownDatabase: true,
    listen: true,
    poolSize: 12,
    env: { ...env, STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET },
    fakes: { stripe: fake.url },
  });
  pool = stripeSite.pool;
  const { DATABASE_URL, QUEUE_PREFIX } = stripeSite.config;
  testPaymentSite = await buildTestApp({
    config: testConfig({ ...env, DATABASE_URL: DATABASE_URL!, QUEUE_PREFIX }),
    sharing: stripeSite,
    listen: true,
  });
  admin = await signedInAdmin(pool);
  // the coach's integrations, set as the Integrations screen sets them
  await adminApi('PUT', '/api/admin/integrations/automation', { enabled: true, value: receiver.url });
  await adminApi('PUT', '/api/admin/integrations/scheduling', {
    enabled: true,
    value: 'https://calendly.com/coach/45',
    webhookKey: SCHEDULING_KEY,
  });
});

afterAll(async () => {
  await testPaymentSite?.close();
  await stripeSite?.close();
  await fake?.close();
  await receiver?.close();
});

function newJourney(plan: Plan, index: number): Journey {
  const test = plan.testing === 'started' || plan.testing === 'switched_on';
  const what = [
    test ? 'test' : 'real',
    plan.tier ?? '',
    plan.stop ? `stops ${plan.stop}` : '',
    plan.rushed ? `rushed, ${plan.rushed}` : '',
    plan.reminderMidDiagnostic ? 'reminded mid-diagnostic' : '',
    plan.next ?? '',
    plan.payments === 'test' ? '(test payment)' : '',
    plan.booking ?? '',
    plan.refunded ? 'refunded' : '',
    plan.remindedToBook ? 'reminded to book' : '',
    plan.testing ? `(testing ${plan.testing})` : '',
  ].filter(Boolean);
  const email = `lead-${index}-${randomBytes(3).toString('hex')}@example.com`;
  return {
    index,
    plan,
    name: `journey ${index} [${what.join(' ')}] ${email}`,
    email,
    address: `203.0.113.${index + 1}`,
    // the visitor's browser is opened when the journey starts, on its site
    visitor: undefined as unknown as ReturnType<typeof flowClient>,
    flowId: null,
    leadId: null,
    diagnosticFlows: 0,
    result: null,
    regradedTier: null,
  };
}

// ---------------------------------------------------------------------------------------------
// what a journey's plan says the surfaces should show

const isTest = (journey: Journey) => journey.plan.testing === 'started' || journey.plan.testing === 'switched_on';
const isGraded = (journey: Journey) => journey.result !== null;
/** Whether the journey's lead, flows and payments count under includeTest. */
const visible = (journey: Journey, includeTest: boolean) => includeTest || !isTest(journey);
/** Whether its payments count: test payments only with includeTest. */
const paymentsCount = (journey: Journey, includeTest: boolean) => includeTest || journey.plan.payments !== 'test';

function expectedTier(journey: Journey): Tier | null {
  return journey.regradedTier ?? (journey.plan.tier && isGraded(journey) ? journey.plan.tier : null);
}

/** The lead's facts as its journey made them, with or without test data. */
function expectedFacts(journey: Journey, includeTest: boolean) {
  const { plan, result } = journey;
  const paid = Boolean(plan.next === 'deposit' && paymentsCount(journey, includeTest));
  const homeworkPaid = Boolean(plan.next === 'paid_homework' && paymentsCount(journey, includeTest));
  const booking = !paid || !plan.booking ? 'none' : plan.booking === 'booked' ? 'booked' : 'opened';
  const canceledBy = plan.booking === 'canceled_by_coach' ? 'coach' : plan.booking === 'canceled_by_lead' ? 'lead' : null;
  return {
    email: journey.email,
    source: 'website',
    test: isTest(journey),
    tier: expectedTier(journey),
    archetype: result?.archetype ?? null,
    leadership_score: result?.compositeScore ?? null,
    // the re-grade moves thresholds only, so the weighted total stays what the visitor was graded
    qualification_score: result?.totalScore ?? null,
    fallback: result ? false : null,
    attempts: (plan.rushed ? 1 : 0) + (result ? 1 : 0),
    rushed_attempts: plan.rushed ? 1 : 0,
    diagnostic_done: isGraded(journey) || plan.stop === 'after_diagnostic',
    survey_done: isGraded(journey),
    deposit: paid ? (plan.refunded ? 'refunded' : 'paid') : 'none',
    deposit_test_mode: paid ? plan.payments === 'test' : null,
    deposit_cents: paid ? DEPOSIT_AMOUNT_CENTS : null,
    homework_paid: homeworkPaid,
    revenue_cents: (paid && !plan.refunded) || homeworkPaid ? DEPOSIT_AMOUNT_CENTS : 0,
    booking,
    session_canceled: paid && canceledBy !== null,
    session_canceled_by: paid ? canceledBy : null,
    reminded_to_book: paid && Boolean(plan.remindedToBook),
  };
}

/** The emails a real lead's journey sent, by kind; a test lead gets none. */
function expectedEmailKinds(journey: Journey): string[] {
  const { plan } = journey;
  if (isTest(journey)) return [];
  const kinds = [
    isGraded(journey) && 'results',
    // every payment gets a receipt: the deposit's and paid homework's
    (plan.next === 'deposit' || plan.next === 'paid_homework') && 'deposit_receipt',
    plan.refunded && 'refund_confirmation',
    plan.next === 'paid_homework' && 'homework',
    plan.next === 'free_resources' && 'free_resources',
    plan.reminderMidDiagnostic && 'assessment_reminder',
    plan.remindedToBook && 'booking_reminder',
  ];
  return kinds.filter((kind): kind is string => typeof kind === 'string').sort();
}

/** Why Needs attention should list the lead, if it should. */
function expectedAttention(journey: Journey, includeTest: boolean): string | null {
  const { plan } = journey;
  if (!visible(journey, includeTest) || plan.next !== 'deposit' || !paymentsCount(journey, includeTest)) return null;
  if (plan.refunded) return plan.booking === 'booked' ? 'refunded_booked' : null;
  if (plan.booking === 'canceled_by_coach') return 'coach_canceled';
  return plan.remindedToBook ? 'not_booked' : null;
}

// ---------------------------------------------------------------------------------------------
// the visitor's browser, the providers, the admin

/** A loopback receiver for the automation webhook: every body it was sent. */
async function webhookReceiver() {
  const bodies: TestJson[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An admin API call with the signed-in admin's session and CSRF header; the JSON answer (the text for CSV). */
async function adminApi(method: string, path: string, body?: unknown): Promise<TestJson> {
  const response = await fetch(`${stripeSite.url}${path}`, {
    method,
    headers: { ...admin.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text}`);
  return path.includes('.csv') ? text : JSON.parse(text);
}

/**
 * Polls the visitor's flow until `holds` (doing `meanwhile` before each look); the failure names
 * the journey, what it waited for and where the flow was.
 */
async function flowWhen(
  journey: Journey,
  holds: (flow: FlowJson) => boolean,
  what: string,
  meanwhile?: () => Promise<unknown>,
): Promise<FlowJson> {
  let flow: FlowJson | undefined;
  try {
    await until(async () => {
      await meanwhile?.();
      return holds((flow = await journey.visitor.get(journey.flowId!)));
    }, 30_000);
  } catch {
    throw new Error(`${journey.name}: waited for ${what}; the flow is at ${flow?.state}`);
  }
  return flow!;
}

async function send(journey: Journey, event: Record<string, unknown>, expectState?: string): Promise<FlowJson> {
  const flow = await journey.visitor.send(journey.flowId!, event);
  if (expectState && flow.state !== expectState)
    throw new Error(`${journey.name}: ${String(event.type)} moved the flow to ${flow.state}, expected ${expectState}`);
  return flow;
}

/**
 * The diagnostic child flow, screen by screen, as the modal answers it. A thoughtful visitor's
 * screens are backdated by THINK_MS (the harness's stand-in for waiting that long: the server times
 * each answer from when it showed the screen); a rushed visitor answers as fast as HTTP allows.
 * `midway` runs once MIDWAY screens are answered; `stopMidway` leaves there.
 */
async function answerDiagnostic(
  journey: Journey,
  options: { rushed?: boolean; stopMidway?: boolean; midway?: (diagnosticFlowId: string) => Promise<void> },
): Promise<FlowJson> {
  const backdate = backdater(pool);
  const pattern = LIKERT_PATTERNS[journey.index % LIKERT_PATTERNS.length]!;
  const option = Math.floor(journey.index / LIKERT_PATTERNS.length) % 2;
  const positions = new Map(diagnosticScreens.map((screen, position) => [screen.id, position]));
  // as the modal does: the child flow is a test flow when its assessment flow is one
  const parent = await journey.visitor.get(journey.flowId!);
  let flow = await journey.visitor.start({ machine: 'diagnostic', testing: parent.snapshot.context.testingMode });
  journey.diagnosticFlows += 1;
  for (let answered = 0; answered < 100 && flow.state !== 'done'; answered++) {
    if (answered === MIDWAY) {
      if (options.stopMidway) return flow;
      await options.midway?.(flow.flowId);
    }
    const { context } = flow.snapshot;
    const screen = context.screens[context.index];
    if (!options.rushed && flow.state !== 'vignette.confidence') await backdate(flow.flowId, THINK_MS);
    const responseTime = options.rushed ? 300 : THINK_MS;
    let event: Record<string, unknown>;
    if (flow.state === 'interstitial') event = { type: 'START_TIMED' };
    else if (flow.state === 'likert')
      event = { type: 'ANSWER_LIKERT', value: pattern[positions.get(screen.id)! % pattern.length], responseTime };
    else if (flow.state === 'vignette.choosing') event = { type: 'SELECT_OPTION', optionId: screen.choiceIds[option], responseTime };
    else if (flow.state === 'vignette.confidence') event = { type: 'SELECT_CONFIDENCE', value: 4 };
    else if (flow.state === 'ranking') event = { type: 'CONFIRM_RANKING', responseTime };
    else throw new Error(`${journey.name}: unexpected diagnostic state ${flow.state}`);
    flow = await journey.visitor.send(flow.flowId, event);
  }
  return flow;
}

/** The reminder to finish fires (its timer job promoted) while the visitor is inside the diagnostic, which must go on where it was. */
async function remindMidDiagnostic(journey: Journey, queues: Queues, diagnosticFlowId: string): Promise<void> {
  const before = await journey.visitor.get(journey.flowId!);
  const child = await journey.visitor.get(diagnosticFlowId);
  // the reminder goes only to a proven address (decision 0045): this lead followed a link mailed to it
  await pool.query('UPDATE leads SET email_proven_at = now() WHERE lead_id = $1', [journey.leadId]);
  expect(await promoteTimers(pool, queues, journey.flowId!), `${journey.name}: the reminder timer`).toBe(1);
  const after = await flowWhen(journey, (flow) => flow.snapshot.context.followUps.remindedToFinish === true, 'the reminder');
  expect(after.state, journey.name).toBe('diagnostic');
  expect(after.snapshot.context.childFlowVisit, `${journey.name}: the diagnostic's visit`).toBe(before.snapshot.context.childFlowVisit);
  expect((await journey.visitor.get(diagnosticFlowId)).version, `${journey.name}: the diagnostic flow`).toBe(child.version);
}

/** The diagnostic, handed to the assessment flow, then the survey; the graded flow, or null where the visitor left. */
async function takeAssessment(journey: Journey, queues: Queues, options: { rushed?: boolean; stopMidway?: boolean }) {
  const remind = journey.plan.reminderMidDiagnostic ? (child: string) => remindMidDiagnostic(journey, queues, child) : undefined;
  const diagnostic = await answerDiagnostic(journey, { ...options, midway: remind });
  if (diagnostic.state !== 'done') return null;
  // the browser's copy of the answers is ignored: the server takes the diagnostic flow's own
  await send(journey, { type: 'DIAGNOSTIC_COMPLETED', answers: {}, diagnosticFlowId: diagnostic.flowId }, 'survey');
  if (journey.plan.stop === 'after_diagnostic') return null;
  await send(journey, { type: 'SURVEY_SUBMITTED', answers: SURVEYS[journey.plan.tier!] }, 'processing.grading');
  return flowWhen(journey, (flow) => flow.state === 'results' || flow.state === 'gaming_detected', 'grading');
}

/** Pays what the flow is at `payment` for: Stripe's checkout and its signed webhook, or a test payment the workers make. */
async function pay(journey: Journey, site: TestApp): Promise<void> {
  if (journey.plan.payments === 'test') return;
  const opened = await flowWhen(journey, (flow) => Boolean(flow.snapshot.context.checkoutUrl), 'the Stripe checkout');
  const sessionId = new URL(opened.snapshot.context.checkoutUrl).pathname.split('/').pop()!;
  const session = fake.sessions.get(sessionId);
  if (!session) throw new Error(`${journey.name}: the fake Stripe has no checkout ${sessionId}`);
  const payload = JSON.stringify({
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: { ...session, status: 'complete', payment_status: 'paid', payment_intent: `pi_${randomBytes(12).toString('hex')}` },
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
  });
  const response = await fetch(`${site.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET }),
    },
    body: payload,
  });
  if (response.status !== 200) throw new Error(`${journey.name}: the Stripe webhook answered ${response.status} ${await response.text()}`);
}

async function calendly(journey: Journey, site: TestApp, body: unknown): Promise<void> {
  const answer = await postCalendlyEvent(site.url, SCHEDULING_KEY, body);
  expect(answer, `${journey.name}: the booking webhook`).toEqual({ received: true, applied: true });
}

/** After a paid deposit: the booking (and its cancellation), the coach's refund, the reminder to book. */
async function afterDeposit(journey: Journey, site: TestApp, queues: Queues): Promise<void> {
  const { plan } = journey;
  if (plan.booking) {
    await send(journey, { type: 'BOOK_SESSION' }, 'payment_success.booking_opened');
    await calendly(
      journey,
      site,
      inviteeCreated(await bookingReferenceOf(pool, journey.flowId!), journey.email, '2030-01-15T15:00:00.000000Z'),
    );
    await flowWhen(journey, (flow) => flow.state === 'payment_success.booked', 'the booking');
    if (plan.booking !== 'booked') {
      const canceler = plan.booking === 'canceled_by_coach' ? 'host' : 'invitee';
      await calendly(journey, site, {
        event: 'invitee.canceled',
        payload: {
          uri: `https://api.calendly.com/scheduled_events/EV/invitees/${randomBytes(8).toString('hex')}`,
          email: journey.email,
          tracking: { utm_content: await bookingReferenceOf(pool, journey.flowId!) },
          cancellation: { canceler_type: canceler },
        },
      });
      await flowWhen(journey, (flow) => flow.state === 'payment_success.booking_opened', 'the cancellation');
    }
  }
  if (plan.refunded) {
    // the coach finds the deposit on the lead's page and refunds it there
    const page = await adminApi('GET', `/api/admin/leads/${journey.leadId}`);
    const deposit = page.payments.find((payment: TestJson) => payment.purpose === 'deposit' && payment.status === 'succeeded');
    if (!deposit) throw new Error(`${journey.name}: no succeeded deposit on the lead page`);
    await adminApi('POST', `/api/admin/payments/${deposit.id}/refund`);
    // the refund is an event on the deposit's journey (DEPOSIT_REFUNDED), applied with it
    const refunded = await journey.visitor.get(journey.flowId!);
    expect(refunded.snapshot.context.completedPath, `${journey.name}: the path after the refund`).toMatchObject({ refunded: true });
  }
  if (plan.remindedToBook) {
    // a day's wait, not waited out: the flow's delayed timer jobs are run now
    await flowWhen(
      journey,
      (flow) => flow.snapshot.context.followUps.remindedToBook === true,
      'the reminder to book',
      () => promoteTimers(pool, queues, journey.flowId!),
    );
  }
}

const ROUTED: Record<Tier, string> = { book_call: 'yes_flow', homework: 'maybe_flow', nurture: 'no_flow.offered' };

/** One visitor's whole journey, as its plan says, on `site`. */
async function drive(journey: Journey, site: TestApp, queues: Queues): Promise<void> {
  const { plan } = journey;
  journey.visitor = flowClient(site.url, { headers: { 'x-forwarded-for': journey.address } });
  const started = await journey.visitor.start(plan.testing === 'started' || plan.testing === 'switched_off' ? { testing: true } : {});
  journey.flowId = started.flowId;
  if (plan.stop === 'before_capture') return;
  if (plan.testing === 'switched_on' || plan.testing === 'switched_off')
    await send(journey, { type: 'SET_TESTING_MODE', on: plan.testing === 'switched_on' });
  const captured = await send(journey, { type: 'CAPTURE_SUBMIT', name: `Lead ${journey.index}`, email: journey.email }, 'intro');
  journey.leadId = captured.snapshot.context.session.leadId;
  if (plan.stop === 'after_capture') return;

  await send(journey, { type: 'START_DIAGNOSTIC' }, 'diagnostic');
  let graded = await takeAssessment(journey, queues, { rushed: Boolean(plan.rushed) });
  if (plan.rushed) {
    if (graded?.state !== 'gaming_detected') throw new Error(`${journey.name}: a rushed attempt went to ${graded?.state}`);
    if (plan.rushed === 'stops') return;
    await send(journey, { type: 'RETAKE' }, 'diagnostic');
    graded = await takeAssessment(journey, queues, { stopMidway: plan.rushed === 'retakes_then_stops' });
  }
  if (!graded) return;
  if (graded.state !== 'results') throw new Error(`${journey.name}: graded to ${graded.state}`);
  journey.result = graded.snapshot.context.result;
  expect(journey.result.qualification, `${journey.name}: the tier shown`).toBe(plan.tier);

  await send(journey, { type: 'CONTINUE' }, ROUTED[plan.tier!]);
  if (plan.next === 'community') await send(journey, { type: 'JOIN_COMMUNITY' }, 'no_flow.joined');
  if (plan.next === 'free_resources') {
    await send(journey, { type: 'CHOOSE_FREE_RESOURCES' });
    await flowWhen(journey, (flow) => flow.state === 'homework_processing.sent', 'the free resources sent');
  }
  if (plan.next === 'paid_homework' || plan.next === 'deposit') {
    await send(journey, { type: plan.next === 'deposit' ? 'PAY_DEPOSIT' : 'PAY_FOR_HOMEWORK' }, 'payment');
    await pay(journey, site);
    await flowWhen(journey, (flow) => flow.state === 'payment_success.confirmed', 'the payment confirmed');
  }
  if (plan.next === 'deposit') await afterDeposit(journey, site, queues);
}

/** Drives the journeys `limit` at a time; every journey runs, and the failures are reported together, by journey. */
async function driveAll(selected: Journey[], site: TestApp, queues: Queues, limit = CONCURRENCY): Promise<void> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, selected.length) }, async () => {
      while (next < selected.length) {
        const journey = selected[next++]!;
        await drive(journey, site, queues).catch((error: unknown) => failures.push(`${journey.name}: ${(error as Error).message}`));
      }
    }),
  );
  expect(failures, 'journeys that failed').toEqual([]);
}

/** Waits until the workers have done every job that is due (timers held back for later are not), and none failed. */
async function settled(queues?: string[]): Promise<void> {
  const only = queues ? 'AND queue = ANY($1)' : '';
  await until(
    async () => {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM jobs
         WHERE status IN ('pending', 'enqueued', 'active') AND (run_after IS NULL OR run_after <= now()) ${only}`,
        queues ? [queues] : [],
      );
      return rows[0]!.n === 0;
    },
    60_000,
    'the workers did not finish their jobs',
  );
  const failed = await pool.query('SELECT queue, name, last_error FROM jobs WHERE status = $1', ['failed']);
  expect(failed.rows, 'failed jobs').toEqual([]);
}

const WORKER_QUEUES = ['grading', 'timers', 'email', 'payments', 'homework', 'webhooks'] as const;

// ---------------------------------------------------------------------------------------------
// reading the surfaces

type Filter = { period: 'all' | '30d' | '7d'; tz: string; includeTest: boolean };

const scopeQuery = (filter: Filter) => `period=${filter.period}&tz=${encodeURIComponent(filter.tz)}&includeTest=${filter.includeTest}`;

/** The leads list's and CSV's query for the Overview's scope: its days in its time zone (all time has no bounds). */
function listQuery(filter: Filter, days: { from: string; to: string }): string {
  const bounds = filter.period === 'all' ? '' : `&from=${days.from}&to=${days.to}`;
  return `tz=${encodeURIComponent(filter.tz)}&includeTest=${filter.includeTest}${bounds}`;
}

/** Every page of the leads list, and its total. */
async function leadsList(query: string): Promise<{ total: number; rows: Map<string, TestJson> }> {
  const rows = new Map<string, TestJson>();
  let total = 0;
  for (let page = 1; page < 100; page++) {
    const answer = await adminApi('GET', `/api/admin/leads?${query}&pageSize=100&page=${page}`);
    total = answer.total;
    for (const item of answer.items) rows.set(item.id, item);
    if (answer.items.length < 100) break;
  }
  return { total, rows };
}

/** CSV text as rows of cells (quoted cells with doubled quotes, CRLF line ends). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  return rows;
}

/** The CSV export for a query: its data rows by lead id, each as a record of its header's columns. */
async function leadsCsv(query: string): Promise<Map<string, Record<string, string>>> {
  const [header, ...rows] = parseCsv(await adminApi('GET', `/api/admin/leads.csv?${query}`));
  return new Map(rows.map((cells) => [cells[0]!, Object.fromEntries(header!.map((column, i) => [column, cells[i]!]))]));
}

/** A lead's facts as its CSV row should write them: each of the CSV's columns, as text. */
function asCsv(facts: TestJson, columns: string[]): Record<string, string> {
  return Object.fromEntries(
    columns.map((column) => {
      const value = facts[column];
      return [column, value === null ? '' : Array.isArray(value) ? value.join(';') : String(value)];
    }),
  );
}

/** The text of a PDF, as pdftotext reads it. */
function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('pdftotext', ['-', '-']);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`pdftotext exited ${code}: ${err}`))));
    child.stdin.end(pdf);
  });
}

/** The N of "Leadership score: N / 100" in a text, or null. */
function leadershipScoreIn(text: string): number | null {
  const found = /Leadership score:\s*(\d+)\s*\/\s*100/.exec(text);
  return found ? Number(found[1]) : null;
}

const leadJourneys = () => journeys.filter((journey) => journey.leadId !== null);
const count = (items: Journey[], holds: (journey: Journey) => boolean) => items.filter(holds).length;
const same = <T>(value: T, ...surfaces: string[]) => Object.fromEntries(surfaces.map((surface) => [surface, value]));

// ---------------------------------------------------------------------------------------------

describe('one lead, one set of facts: every surface agrees after 54 journeys of every kind', () => {
  it('drives the Stripe-mode journeys through the public API, the admin and the providers', { timeout: 300_000 }, async () => {
    const { queues } = await buildTestWorker(stripeSite, { queues: [...WORKER_QUEUES] });
    await driveAll(
      journeys.filter((journey) => journey.plan.payments !== 'test'),
      stripeSite,
      queues,
    );
    await settled();
  });

  it('drives the test-payment journeys through a second server without a Stripe key', { timeout: 120_000 }, async () => {
    const { queues } = await buildTestWorker(testPaymentSite, { queues: [...WORKER_QUEUES] });
    await driveAll(
      journeys.filter((journey) => journey.plan.payments === 'test'),
      testPaymentSite,
      queues,
    );
    await settled();
    expect(journeys.length).toBeGreaterThanOrEqual(50);
  });

  it(
    're-grades the real homework leads through the admin API: the dry run and the apply move the same leads',
    { timeout: 60_000 },
    async () => {
      await buildTestWorker(stripeSite, { queues: ['webhooks'] });
      const rules = {
        ...DEFAULT_GRADING_RULES,
        thresholds: { bookCall: DEFAULT_GRADING_RULES.thresholds.bookCall, homework: REGRADE_HOMEWORK_FROM },
      };
      const scope = { tier: 'homework', includeTestLeads: false };
      const inScope = journeys.filter((journey) => !isTest(journey) && journey.result?.qualification === 'homework');
      const moving = inScope.filter((journey) => journey.result.totalScore < REGRADE_HOMEWORK_FROM);
      // the journeys' answers must give both kinds, or this proves nothing
      expect(moving.length).toBeGreaterThan(0);
      expect(inScope.length - moving.length).toBeGreaterThan(0);
      const movedIds = moving.map((journey) => journey.leadId).sort();

      const dryRun = await adminApi('POST', '/api/admin/grading/dry-run', { rules, scope });
      expect({ considered: dryRun.considered, moved: dryRun.leads.map((lead: TestJson) => lead.leadId).sort() }).toEqual({
        considered: inScope.length,
        moved: movedIds,
      });
      const applied = await adminApi('POST', '/api/admin/grading/apply', { rules, scope, note: 'consistency test' });
      expect({ considered: applied.considered, moved: applied.leads.map((lead: TestJson) => lead.leadId).sort() }).toEqual({
        considered: inScope.length,
        moved: movedIds,
      });
      for (const journey of inScope) journey.regradedTier = journey.result.totalScore < REGRADE_HOMEWORK_FROM ? 'nurture' : 'homework';

      await settled(['webhooks']);
      const regraded = receiver.bodies.filter((body) => body.event === 'lead.regraded');
      expect(regraded.map((body) => [body.leadId, body.data.tier]).sort()).toEqual(movedIds.map((id) => [id, 'nurture']));
    },
  );

  it('shows each lead the same on its page, the leads list and the CSV, as its journey made it', { timeout: 60_000 }, async () => {
    const views = {
      withTest: { list: await leadsList('includeTest=true'), csv: await leadsCsv('includeTest=true') },
      realOnly: { list: await leadsList('includeTest=false'), csv: await leadsCsv('includeTest=false') },
    };
    const columns = Object.keys([...views.withTest.csv.values()][0]!);
    expect(views.withTest.list.rows.size, 'leads listed with test leads').toBe(leadJourneys().length);
    expect(views.realOnly.list.rows.size, 'leads listed without test leads').toBe(count(leadJourneys(), (journey) => !isTest(journey)));

    for (const journey of leadJourneys()) {
      const { name } = journey;
      const page = await adminApi('GET', `/api/admin/leads/${journey.leadId}`);
      expect(page.lead, `${name}: the lead page against its journey`).toMatchObject(expectedFacts(journey, true));
      expect(views.withTest.list.rows.get(journey.leadId!), `${name}: the leads list (test included) against the lead page`).toEqual(
        page.lead,
      );
      expect(views.withTest.csv.get(journey.leadId!), `${name}: the CSV (test included) against the lead page`).toEqual(
        asCsv(page.lead, columns),
      );

      const real = views.realOnly.list.rows.get(journey.leadId!);
      if (isTest(journey)) {
        expect(real, `${name}: a test lead in the leads list without test leads`).toBeUndefined();
        expect(views.realOnly.csv.has(journey.leadId!), `${name}: a test lead in the CSV without test leads`).toBe(false);
      } else {
        expect(real, `${name}: the leads list (real only) against its journey`).toMatchObject(expectedFacts(journey, false));
        expect(views.realOnly.csv.get(journey.leadId!), `${name}: the CSV (real only) against the leads list`).toEqual(
          asCsv(real, columns),
        );
      }

      // the result the page shows is the one lead_facts reads the tier and scores from
      if (isGraded(journey)) {
        const { lead, result } = page;
        expect(result, `${name}: the lead page's result against its facts`).toMatchObject({
          id: lead.result_id,
          tier: lead.tier,
          archetype: lead.archetype,
          leadership_score: lead.leadership_score,
          qualification_score: lead.qualification_score,
          fallback: false,
        });
      } else {
        expect(page.result, `${name}: an ungraded lead's result`).toBeNull();
      }
      // the attempts the page lists are the ones its facts count; a rushed one has no tier
      const attempts = page.results.filter((row: TestJson) => !row.regraded);
      expect(
        { attempts: attempts.length, rushed: attempts.filter((row: TestJson) => row.rushed && row.tier === null).length },
        `${name}: the attempts on the lead page against its facts`,
      ).toEqual({ attempts: page.lead.attempts, rushed: page.lead.rushed_attempts });
    }
  });

  it(
    'shows each graded lead the same leadership score in the results email, the PDF report and the lead.graded webhook; a test lead gets no email',
    { timeout: 120_000 },
    async () => {
      for (const journey of leadJourneys()) {
        const { name } = journey;
        const page = await adminApi('GET', `/api/admin/leads/${journey.leadId}`);
        const emails = await pool.query<{ kind: string; text_body: string }>(
          'SELECT kind, text_body FROM email_outbox WHERE lead_id = $1 OR lower(to_address) = lower($2) ORDER BY kind',
          [journey.leadId, journey.email],
        );
        expect(
          emails.rows.map((email) => email.kind),
          `${name}: the emails sent`,
        ).toEqual(expectedEmailKinds(journey));
        expect(page.emails.map((email: TestJson) => email.kind).sort(), `${name}: the emails on the lead page`).toEqual(
          expectedEmailKinds(journey),
        );

        const graded = receiver.bodies.filter((body) => body.event === 'lead.graded' && body.leadId === journey.leadId);
        if (!isGraded(journey)) {
          expect(graded, `${name}: lead.graded webhooks of an ungraded lead`).toEqual([]);
          continue;
        }
        const { result } = journey;
        const shown = Math.round(result.compositeScore);
        expect(
          graded.map((body) => body.data),
          `${name}: the lead.graded webhook against the result shown`,
        ).toEqual([
          expect.objectContaining({
            tier: result.qualification,
            archetype: result.archetype,
            leadershipScore: result.compositeScore,
            qualificationScore: result.totalScore,
            test: isTest(journey),
          }),
        ]);
        if (!isTest(journey)) {
          const resultsEmail = emails.rows.find((email) => email.kind === 'results')!;
          expect(leadershipScoreIn(resultsEmail.text_body), `${name}: the results email's leadership score`).toBe(shown);
          if (!journey.regradedTier)
            expect(leadershipScoreIn(resultsEmail.text_body), `${name}: the results email against the lead page`).toBe(
              Math.round(page.lead.leadership_score),
            );
        }
        // the report of the diagnostic graded last, fetched by the visitor with their own cookie
        const diagnosticId = page.diagnostics[0].id;
        const response = await fetch(`${stripeSite.url}/api/reports/${diagnosticId}.pdf`, {
          headers: { cookie: journey.visitor.cookie(), 'x-forwarded-for': journey.address },
        });
        expect(response.status, `${name}: the PDF report`).toBe(200);
        const text = await pdfText(Buffer.from(await response.arrayBuffer()));
        expect(leadershipScoreIn(text), `${name}: the PDF report against the lead page`).toBe(Math.round(page.lead.leadership_score));
        expect(leadershipScoreIn(text), `${name}: the PDF report against the result shown`).toBe(shown);
      }
    },
  );

  const FILTERS: Filter[] = [
    { period: 'all', tz: 'UTC', includeTest: false },
    { period: 'all', tz: 'UTC', includeTest: true },
    { period: '30d', tz: 'America/Los_Angeles', includeTest: false },
    { period: '30d', tz: 'Asia/Kolkata', includeTest: true },
    { period: '7d', tz: 'Pacific/Auckland', includeTest: false },
  ];

  it.each(FILTERS)(
    'counts the same totals on the Overview, funnel, drop-off, leads list and CSV for period=$period tz=$tz includeTest=$includeTest',
    { timeout: 30_000 },
    async (filter) => {
      const label = JSON.stringify(filter);
      const [overview, funnel, dropoff] = await Promise.all([
        adminApi('GET', `/api/admin/overview?${scopeQuery(filter)}`),
        adminApi('GET', `/api/admin/overview/funnel?${scopeQuery(filter)}`),
        adminApi('GET', `/api/admin/overview/dropoff?${scopeQuery(filter)}`),
      ]);
      const query = listQuery(filter, overview);
      const list = await leadsList(query);
      const csv = await leadsCsv(query);
      const facts = [...list.rows.values()];
      const ours = journeys.filter((journey) => visible(journey, filter.includeTest));
      const leads = ours.filter((journey) => journey.leadId !== null);
      const paying = (journey: Journey) => expectedFacts(journey, filter.includeTest);

      expect(
        {
          overview: overview.counts.totalLeads,
          funnel: funnel.funnel.captured,
          list: list.total,
          listed: list.rows.size,
          csv: csv.size,
          dropoff: dropoff.assessment.captured,
          perDay: funnel.leadsPerDay.bars.reduce((sum: number, bar: TestJson) => sum + bar.leads, 0),
        },
        `${label}: leads`,
      ).toEqual(same(leads.length, 'overview', 'funnel', 'list', 'listed', 'csv', 'dropoff', 'perDay'));
      expect([...csv.keys()].sort(), `${label}: the CSV's leads against the list's`).toEqual([...list.rows.keys()].sort());

      // a rushed attempt is never a completion
      const diagnosed = count(leads, (journey) => paying(journey).diagnostic_done);
      expect(
        {
          overview: overview.counts.diagnosticsCompleted,
          funnel: funnel.funnel.diagnosticDone,
          facts: facts.filter((lead) => lead.diagnostic_done || lead.survey_done).length,
        },
        `${label}: diagnostics completed`,
      ).toEqual(same(diagnosed, 'overview', 'funnel', 'facts'));
      const surveyed = count(leads, isGraded);
      expect(
        {
          overview: overview.counts.surveyResponses,
          funnel: funnel.funnel.surveyDone,
          facts: facts.filter((lead) => lead.survey_done).length,
        },
        `${label}: survey responses`,
      ).toEqual(same(surveyed, 'overview', 'funnel', 'facts'));

      const tiers = (tierOf: (tier: Tier) => number) => ({
        book_call: tierOf('book_call'),
        homework: tierOf('homework'),
        nurture: tierOf('nurture'),
      });
      expect(
        {
          funnel: { ...funnel.funnel.tiers, ungraded: funnel.funnel.ungraded },
          facts: { ...tiers((tier) => facts.filter((lead) => lead.survey_done && lead.tier === tier).length), ungraded: 0 },
        },
        `${label}: tiers`,
      ).toEqual(same({ ...tiers((tier) => count(leads, (journey) => expectedTier(journey) === tier)), ungraded: 0 }, 'funnel', 'facts'));

      const money = (rows: ReturnType<typeof paying>[]) => ({
        depositsPaid: rows.filter((lead) => lead.deposit === 'paid' || lead.homework_paid).length,
        sessionsBooked: rows.filter((lead) => lead.deposit === 'paid' && lead.booking === 'booked').length,
        revenueCents: rows.reduce((sum, lead) => sum + lead.revenue_cents, 0),
      });
      expect(
        {
          funnel: {
            depositsPaid: funnel.funnel.depositsPaid,
            sessionsBooked: funnel.funnel.sessionsBooked,
            revenueCents: funnel.funnel.revenueCents,
          },
          facts: money(facts),
        },
        `${label}: payments`,
      ).toEqual(same(money(leads.map(paying)), 'funnel', 'facts'));
      expect(money(leads.map(paying)).revenueCents, `${label}: some revenue`).toBeGreaterThan(0);

      // every journey started one assessment flow and one diagnostic flow per attempt
      expect(
        { assessment: dropoff.assessment.started, diagnostic: dropoff.diagnostic.started },
        `${label}: flows started (drop-off)`,
      ).toEqual({ assessment: ours.length, diagnostic: ours.reduce((sum, journey) => sum + journey.diagnosticFlows, 0) });
    },
  );

  it.each([false, true])('lists in Needs attention (includeTest=%s) exactly the leads whose facts say so', async (includeTest) => {
    const { items } = await adminApi('GET', `/api/admin/overview/attention?includeTest=${includeTest}`);
    const { rows } = await leadsList(`includeTest=${includeTest}`);
    const nameOf = new Map(leadJourneys().map((journey) => [journey.leadId, journey.name]));
    const listed = (entries: Array<[string, string]>) => entries.map(([leadId, reason]) => `${nameOf.get(leadId)}: ${reason}`).sort();

    const expected = listed(
      leadJourneys().flatMap((journey): Array<[string, string]> => {
        const reason = expectedAttention(journey, includeTest);
        return reason ? [[journey.leadId!, reason]] : [];
      }),
    );
    const fromFacts = listed(
      [...rows.values()].flatMap((lead): Array<[string, string]> => {
        if (lead.deposit === 'refunded' && lead.booking === 'booked') return [[lead.id, 'refunded_booked']];
        if (lead.deposit !== 'paid' || lead.booking === 'booked') return [];
        if (lead.session_canceled && lead.session_canceled_by === 'coach') return [[lead.id, 'coach_canceled']];
        return lead.reminded_to_book ? [[lead.id, 'not_booked']] : [];
      }),
    );
    expect(
      expected.some((item) => item.endsWith('refunded_booked')),
      'a refunded lead still booked',
    ).toBe(true);
    expect(listed(items.map((item: TestJson) => [item.leadId, item.reason])), 'Needs attention against the journeys').toEqual(expected);
    expect(fromFacts, "the leads' facts against the journeys").toEqual(expected);
  });

  it("kept, as the journeys went, what the definition derives: each flow's progress and each lead's summary (decision 0055)", async () => {
    // each flow's row against its events, by the migration's backfill (the reads' rules before 0055)
    const derived = await progressFromEvents(pool);
    const kept = await storedProgress(pool);
    expect(kept.size, 'flows').toBeGreaterThan(journeys.length);
    expect(Object.fromEntries(kept)).toEqual(Object.fromEntries(derived));
    // what the grading, payment, booking, re-grade and capture paths kept, against lead_facts read now
    const summaries = async () =>
      (await pool.query('SELECT * FROM lead_summaries ORDER BY lead_id')).rows.map((row) => JSON.stringify(row));
    const written = await summaries();
    expect(written.length, 'every lead has its summary').toBe((await pool.query('SELECT 1 FROM leads')).rowCount);
    await refreshAllLeadFacts(pool);
    expect(written).toEqual(await summaries());
  });
});
