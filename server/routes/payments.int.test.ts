import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AssessmentFlowContext } from '#machines/assessment-flow/assessment-flow.context.js';
import { startFakeStripe, type FakeCheckoutSession, type FakeStripe } from '#test/fake-stripe.js';
import { seedResultsFlow } from '#test/flows.js';
import { injectAs, seedVisitor } from '#test/visitor.js';
import { signedInAdmin } from '#test/admin-session.js';
import { testConfig } from '#test/helpers.js';
import { bookingReferenceFor } from '#core/scheduling/booking-references.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { sessionCookieName } from '../auth/cookie.js';
import type { Config } from '#core/config/index.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const PUBLIC_URL = 'https://coach.example.com';
const START_FAILED = 'There was an issue starting your checkout. Please try again.';

let fake: FakeStripe;
let pool: pg.Pool;
/** Stripe mode, against the loopback fake. */
let stripeApp: FastifyInstance;
/** Test-payment mode: no Stripe key, no webhook secret. */
let testApp: FastifyInstance;
let stripeConfig: Config;
let testModeConfig: Config;
let stripeHarness: TestApp;
let testHarness: TestApp;
// the visitor whose flows these are; both apps know their cookie (one database, one key)
let owner: { visitorId: string; cookie: string };
const asOwner = (app: FastifyInstance) => injectAs(app, { visitorCookie: owner.cookie });

beforeAll(async () => {
  fake = await startFakeStripe();
  // a database of its own: the timers relay below claims every pending job in its database
  stripeHarness = await buildTestApp({
    ownDatabase: true,
    poolSize: 8,
    env: { PUBLIC_URL, STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    fakes: { stripe: fake.url },
  });
  ({ app: stripeApp, pool, config: stripeConfig } = stripeHarness);
  testModeConfig = testConfig({ DATABASE_URL: stripeConfig.DATABASE_URL!, QUEUE_PREFIX: stripeConfig.QUEUE_PREFIX, PUBLIC_URL });
  testHarness = await buildTestApp({ config: testModeConfig, sharing: stripeHarness });
  testApp = testHarness.app;
  owner = await seedVisitor(pool);
});

afterAll(async () => {
  await testHarness?.close();
  await stripeHarness?.close();
  await fake.close();
});

const email = (label: string) => `${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;

async function sendFlowEvent(flowId: string, event: { type: string }) {
  const response = await asOwner(stripeApp)({ method: 'POST', url: `/api/flows/${flowId}/events`, payload: { event } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The worker side in Stripe mode (the payments queue), for this test only. */
const stripeWorkers = () => buildTestWorker(stripeHarness, { queues: ['payments'] });
/** The worker side in test-payment mode (payments, and the timers that confirm a test payment), for this test only. */
const testModeWorkers = () => buildTestWorker(testHarness, { queues: ['payments', 'timers', 'email'] });

/** The lead's emails of `kind`, as the outbox holds them (no SMTP here: recorded, for the admin to read). */
async function emailsOf(leadId: string, kind: string) {
  const found = await pool.query('SELECT to_address, subject, text_body, status FROM email_outbox WHERE lead_id = $1 AND kind = $2', [
    leadId,
    kind,
  ]);
  return found.rows;
}

/** A lead's flow standing at its next step: yes_flow (book_call) or maybe_flow (homework). */
async function flowAtNextStep(tier: 'book_call' | 'homework', label: string) {
  const seeded = await seedResultsFlow(pool, tier, email(label), owner);
  await sendFlowEvent(seeded.flowId, { type: 'CONTINUE' });
  return seeded;
}

/** A lead's flow the visitor moved to `payment` themselves: the deposit (book_call) or paid homework (homework). */
async function flowAtPayment(tier: 'book_call' | 'homework', label: string) {
  const seeded = await flowAtNextStep(tier, label);
  const flow = await sendFlowEvent(seeded.flowId, { type: tier === 'book_call' ? 'PAY_DEPOSIT' : 'PAY_FOR_HOMEWORK' });
  expect(flow.state).toBe('payment');
  return seeded;
}

function createPayment(app: FastifyInstance, payload: Record<string, unknown>, as = asOwner(app)) {
  return as({ method: 'POST', url: '/api/functions/create-payment', payload });
}

async function flowState(flowId: string) {
  const found = await pool.query<{ state: string; version: number; context: AssessmentFlowContext }>(
    "SELECT state, version, snapshot->'context' AS context FROM flows WHERE id = $1",
    [flowId],
  );
  return found.rows[0]!;
}

async function paymentJobs(flowId: string) {
  const found = await pool.query<{ id: string; status: string; last_error: string | null }>(
    "SELECT id, status, last_error FROM jobs WHERE flow_id = $1 AND queue = 'payments' ORDER BY created_at",
    [flowId],
  );
  return found.rows;
}

/** Checkout sessions the fake opened for a flow. */
const sessionsOf = (flowId: string) => [...fake.sessions.values()].filter((s) => (s.metadata as Record<string, string>).flowId === flowId);

async function trackedPayments(flowId: string) {
  const found = await pool.query('SELECT * FROM payment_tracking WHERE flow_id = $1 ORDER BY created_at', [flowId]);
  return found.rows;
}

async function countEvents(flowId: string, type: string): Promise<number> {
  const found = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM flow_events WHERE flow_id = $1 AND type = $2', [
    flowId,
    type,
  ]);
  return found.rows[0]!.n;
}

/** A Stripe event in its wire shape. */
function stripeEvent(type: string, object: Record<string, unknown>) {
  return {
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

function sendWebhook(app: FastifyInstance, event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  return app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
    payload,
  });
}

/** A Stripe checkout started by the visitor's deposit choice; returns the session the fake answered with. */
async function checkoutFor(tier: 'book_call' | 'homework', label: string) {
  await stripeWorkers();
  const seeded = await flowAtPayment(tier, label);
  await until(async () => (await flowState(seeded.flowId)).context.checkoutUrl !== null);
  const sessionId = new URL((await flowState(seeded.flowId)).context.checkoutUrl!).pathname.split('/').pop()!;
  return { ...seeded, session: fake.sessions.get(sessionId)! };
}

/** The session as checkout.session.completed carries it once the visitor has paid. */
function paidSession(session: FakeCheckoutSession): FakeCheckoutSession & { payment_intent: string } {
  return { ...session, status: 'complete', payment_status: 'paid', payment_intent: `pi_${randomBytes(12).toString('hex')}` };
}

async function adminHeaders() {
  const admin = await signedInAdmin(pool, { email: email('admin') });
  // the site is https here, so the session cookie carries the __Host- prefix
  return { cookie: `${sessionCookieName({ publicUrl: PUBLIC_URL })}=${admin.cookie}`, 'x-csrf-token': admin.csrf };
}

describe('startPayment in Stripe mode: the payments job', () => {
  it('opens a Checkout for the $250 refundable deposit keyed by its job row, tracks it as pending and gives the flow its url', async () => {
    await stripeWorkers();
    const before = fake.requests.length;
    const { flowId, leadId, email: leadEmail } = await flowAtPayment('book_call', 'checkout');
    await until(async () => (await flowState(flowId)).context.checkoutUrl !== null);

    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    const { path, form, idempotencyKey } = sent[0]!;
    expect(path).toBe('/v1/checkout/sessions');
    expect(form).toMatchObject({
      mode: 'payment',
      customer_email: leadEmail,
      metadata: { leadId, flowId, purpose: 'deposit' },
      payment_intent_data: { metadata: { leadId, flowId, purpose: 'deposit' } },
      success_url: `${PUBLIC_URL}/payment-success?session_id={CHECKOUT_SESSION_ID}&flow=${flowId}`,
      cancel_url: `${PUBLIC_URL}/payment-canceled?flow=${flowId}`,
    });
    const items = form.line_items as Array<{ price_data: { product_data: { name: string } } }>;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ quantity: '1', price_data: { currency: 'usd', unit_amount: '25000' } });
    expect(items[0]!.price_data.product_data.name).toMatch(/100% refundable/i);
    const [job] = await paymentJobs(flowId);
    expect(idempotencyKey).toBe(`checkout-${job!.id}`);
    await until(async () => (await paymentJobs(flowId))[0]!.status === 'completed');

    const [session] = sessionsOf(flowId);
    expect(session!.amount_total).toBe(25000);
    const flow = await flowState(flowId);
    expect(flow).toMatchObject({ state: 'payment', context: { checkoutUrl: session!.url } });
    const opened = await pool.query("SELECT origin, payload FROM flow_events WHERE flow_id = $1 AND type = 'CHECKOUT_OPENED'", [flowId]);
    expect(opened.rows).toEqual([{ origin: 'worker', payload: { url: session!.url } }]);
    expect(await trackedPayments(flowId)).toEqual([
      expect.objectContaining({
        checkout_session_id: session!.id,
        payment_intent_id: null,
        status: 'pending',
        lead_id: leadId,
        flow_id: flowId,
        purpose: 'deposit',
        amount_cents: 25000,
        currency: 'usd',
        test_mode: false,
      }),
    ]);

    // create-payment on a flow already at payment takes the attempt under way: no second session
    const response = await createPayment(stripeApp, { source: 'refundable_deposit', flowId });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ mode: 'stripe', url: session!.url });
    expect(fake.requests.length).toBe(before + 1);
    expect(await trackedPayments(flowId)).toHaveLength(1);
  });

  it("a Stripe refusal becomes PAYMENT_FAILED start_failed: the flow is back at its next step with the product's notice, nothing tracked", async () => {
    await stripeWorkers();
    fake.failNext('/v1/checkout/sessions', {
      status: 400,
      type: 'invalid_request_error',
      message: 'Invalid API Key provided: sk_test_****fake',
    });
    const { flowId } = await flowAtPayment('book_call', 'stripe-down');
    await until(async () => (await flowState(flowId)).state === 'yes_flow');
    expect((await flowState(flowId)).context.notice).toEqual({ title: 'Payment Failed', description: START_FAILED });
    expect(await trackedPayments(flowId)).toEqual([]);
    // refused for good: one attempt, and what Stripe said is kept for the coach
    const [job] = await paymentJobs(flowId);
    expect(job).toMatchObject({ status: 'failed', last_error: expect.stringContaining('StripeInvalidRequestError') });
    expect(await countEvents(flowId, 'PAYMENT_FAILED')).toBe(1);
  });

  it('an attempt the visitor left before its job ran opens nothing; the new attempt opens one checkout', async () => {
    const { flowId } = await flowAtPayment('book_call', 'changed-mind');
    await sendFlowEvent(flowId, { type: 'PAYMENT_CANCELED' });
    await sendFlowEvent(flowId, { type: 'PAY_DEPOSIT' });
    const before = fake.requests.length;
    await stripeWorkers();
    await until(async () => (await paymentJobs(flowId)).every((job) => job.status === 'completed'));
    await until(async () => (await flowState(flowId)).context.checkoutUrl !== null);
    expect(fake.requests.length - before).toBe(1);
    const [session] = sessionsOf(flowId);
    const [stale, current] = await paymentJobs(flowId);
    expect(fake.requests.at(-1)!.idempotencyKey).toBe(`checkout-${current!.id}`);
    expect(stale!.id).not.toBe(current!.id);
    expect(await trackedPayments(flowId)).toEqual([expect.objectContaining({ checkout_session_id: session!.id, status: 'pending' })]);
    expect(await countEvents(flowId, 'CHECKOUT_OPENED')).toBe(1);
  });
});

describe('create-payment (the adapter)', () => {
  it("on the visitor's flow at yes_flow: applies PAY_DEPOSIT and answers the checkout url once the job has it; a double click gets the same checkout", async () => {
    await stripeWorkers();
    const { flowId } = await flowAtNextStep('book_call', 'adapter');
    const before = fake.requests.length;
    const [first, second] = await Promise.all([
      createPayment(stripeApp, { source: 'refundable_deposit', flowId }),
      createPayment(stripeApp, { source: 'refundable_deposit', flowId }),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    const [session] = sessionsOf(flowId);
    expect(first.json()).toEqual({ mode: 'stripe', url: session!.url });
    expect(second.json()).toEqual(first.json());
    expect(fake.requests.length - before).toBe(1);
    expect(await countEvents(flowId, 'PAY_DEPOSIT')).toBe(1);
    expect(await paymentJobs(flowId)).toHaveLength(1);
    expect(await trackedPayments(flowId)).toHaveLength(1);
  });

  it('answers 502 with the product message when Stripe refuses', async () => {
    await stripeWorkers();
    const { flowId } = await flowAtNextStep('homework', 'adapter-refused');
    fake.failNext('/v1/checkout/sessions', {
      status: 400,
      type: 'invalid_request_error',
      message: 'Invalid API Key provided: sk_test_****fake',
    });
    const response = await createPayment(stripeApp, { flowId });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ statusCode: 502, error: 'Bad Gateway', message: START_FAILED });
    expect(response.body).not.toContain('sk_test');
    expect((await flowState(flowId)).state).toBe('maybe_flow');
    expect(await trackedPayments(flowId)).toEqual([]);
  });

  it('answers 409 for a flow not at a deposit step, 400 naming bad fields, and stores nothing', async () => {
    const { flowId } = await seedResultsFlow(pool, 'book_call', email('not-paying'), owner);
    const before = fake.requests.length;
    const refused = await createPayment(stripeApp, { flowId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      statusCode: 409,
      error: 'Conflict',
      message: 'This assessment cannot take a deposit now (it is at results).',
    });
    expect(fake.requests.length).toBe(before);
    expect(await paymentJobs(flowId)).toEqual([]);
    expect((await flowState(flowId)).state).toBe('results');

    const bad = await createPayment(stripeApp, { source: 'full_program', flowId: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['flowId', 'source']);
  });

  it("answers a stranger 404 for someone else's flow, the same as for a missing one, and stores nothing", async () => {
    const { flowId } = await flowAtNextStep('book_call', 'victim');
    const stranger = injectAs(stripeApp, { remoteAddress: '203.0.113.9' });
    const before = await flowState(flowId);
    const refused = await createPayment(stripeApp, { source: 'refundable_deposit', flowId }, stranger);
    expect(refused.statusCode).toBe(404);
    const missing = await createPayment(stripeApp, { flowId: '00000000-0000-4000-8000-000000000000' }, stranger);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message.replace(/[0-9a-f-]{36}/, 'ID')).toBe(refused.json().message.replace(/[0-9a-f-]{36}/, 'ID'));
    expect(await flowState(flowId)).toEqual(before);
    expect(await paymentJobs(flowId)).toEqual([]);
    expect(await trackedPayments(flowId)).toEqual([]);
  });
});

describe('the Stripe webhook', () => {
  it('a paid checkout moves the flow to payment_success and stores the payment as succeeded, once however often it is sent', async () => {
    const { flowId, session: opened } = await checkoutFor('book_call', 'paid');
    const session = paidSession(opened);
    const event = stripeEvent('checkout.session.completed', session);

    const first = await sendWebhook(stripeApp, event);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true });
    const flow = await flowState(flowId);
    expect(flow.state).toBe('payment_success.confirmed');
    expect(flow.context.session.paymentIntentId).toBe(session.payment_intent);
    expect(await trackedPayments(flowId)).toEqual([
      expect.objectContaining({ checkout_session_id: session.id, payment_intent_id: session.payment_intent, status: 'succeeded' }),
    ]);

    const second = await sendWebhook(stripeApp, event);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ received: true, duplicate: true });
    expect(await countEvents(flowId, 'PAYMENT_CONFIRMED')).toBe(1);
    const receipts = await pool.query("SELECT type FROM webhook_receipts WHERE provider = 'stripe' AND event_id = $1", [event.id]);
    expect(receipts.rows).toEqual([{ type: 'checkout.session.completed' }]);

    const verified = await asOwner(stripeApp)(`/api/payments/verify?sessionId=${session.id}`);
    expect(verified.json()).toEqual({ success: true, status: 'succeeded', purpose: 'deposit', amountCents: 25000, testMode: false });
    const byIntent = await asOwner(stripeApp)(`/api/payments/verify?paymentIntentId=${session.payment_intent}`);
    expect(byIntent.json()).toEqual(verified.json());
  });

  it('refuses a bad, missing, stale or future-dated signature with 400 and stores nothing', async () => {
    const { flowId, session: opened } = await checkoutFor('book_call', 'forged');
    const session = paidSession(opened);
    const event = stripeEvent('checkout.session.completed', session);

    const forged = await sendWebhook(stripeApp, event, `whsec_${randomBytes(16).toString('hex')}`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(forged.json().message).toContain('Invalid Stripe-Signature');
    const unsigned = await asOwner(stripeApp)({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toBe('Missing Stripe-Signature header.');
    // a body changed after signing no longer matches
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(event), secret: WEBHOOK_SECRET });
    const tampered = await asOwner(stripeApp)({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload: JSON.stringify({ ...event, type: 'checkout.session.expired' }),
    });
    expect(tampered.statusCode).toBe(400);
    // a good signature with a timestamp a day ago or a day ahead is refused
    const day = 24 * 3600;
    for (const [offset, reason] of [
      [-day, 'too old'],
      [day, 'in the future'],
    ] as const) {
      const payload = JSON.stringify(event);
      const timestamp = Math.floor(Date.now() / 1000) + offset;
      const shifted = await asOwner(stripeApp)({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }),
        },
        payload,
      });
      expect(shifted.statusCode, String(offset)).toBe(400);
      expect(shifted.json().message, String(offset)).toContain(reason);
    }
    // no secret configured: nothing can be trusted
    const unconfigured = await sendWebhook(testApp, event);
    expect(unconfigured.statusCode).toBe(400);
    expect(unconfigured.json().message).toContain('STRIPE_WEBHOOK_SECRET');

    const receipts = await pool.query('SELECT 1 FROM webhook_receipts WHERE event_id = $1', [event.id]);
    expect(receipts.rowCount).toBe(0);
    expect((await trackedPayments(flowId))[0]).toMatchObject({ status: 'pending', payment_intent_id: null });
    expect((await flowState(flowId)).state).toBe('payment');
  });

  it('on the paid-homework path the confirmation moves the flow to homework_processing, which emits the homework job', async () => {
    const { flowId, leadId, session: opened } = await checkoutFor('homework', 'homework');
    const session = paidSession(opened);
    expect(session.metadata).toEqual({ leadId, flowId, purpose: 'paid_homework' });

    const response = await sendWebhook(stripeApp, stripeEvent('checkout.session.completed', session));
    expect(response.statusCode, response.body).toBe(200);
    const flow = await flowState(flowId);
    expect(flow.state).toBe('homework_processing.sending');
    expect(flow.context.homeworkSource).toBe('paid_homework');
    const jobs = await pool.query(
      "SELECT name, lead_id, payload->'request' AS request FROM jobs WHERE flow_id = $1 AND queue = 'homework'",
      [flowId],
    );
    expect(jobs.rows).toEqual([
      expect.objectContaining({
        name: 'send-homework',
        lead_id: leadId,
        request: expect.objectContaining({ sendHomework: true, source: 'paid_homework' }),
      }),
    ]);
    expect((await trackedPayments(flowId))[0]).toMatchObject({ purpose: 'paid_homework', status: 'succeeded' });
  });

  it('an expired checkout is canceled and returns the waiting flow to yes_flow with the product notice', async () => {
    const { flowId, session } = await checkoutFor('book_call', 'expired');
    const response = await sendWebhook(stripeApp, stripeEvent('checkout.session.expired', { ...session, status: 'expired' }));
    expect(response.statusCode, response.body).toBe(200);
    const flow = await flowState(flowId);
    expect(flow.state).toBe('yes_flow');
    expect(flow.context.notice).toEqual({ title: null, description: 'Your checkout was canceled. You can restart the process anytime.' });
    expect((await trackedPayments(flowId))[0]).toMatchObject({ status: 'canceled' });
  });

  it('a failed delayed payment fails the flow as verification_failed', async () => {
    const { flowId, session } = await checkoutFor('book_call', 'async-failed');
    const response = await sendWebhook(stripeApp, stripeEvent('checkout.session.async_payment_failed', { ...session, status: 'complete' }));
    expect(response.statusCode, response.body).toBe(200);
    const flow = await flowState(flowId);
    expect(flow.state).toBe('yes_flow');
    expect(flow.context.notice).toEqual({ title: 'Payment verification failed', description: 'Please contact support.' });
    expect((await trackedPayments(flowId))[0]).toMatchObject({ status: 'failed' });
  });

  it('a refund made at Stripe (charge.refunded) marks the payment refunded; unknown event types are received and ignored', async () => {
    const { flowId, session: opened } = await checkoutFor('book_call', 'dashboard-refund');
    const session = paidSession(opened);
    await sendWebhook(stripeApp, stripeEvent('checkout.session.completed', session));
    const charge = {
      id: `ch_${randomBytes(12).toString('hex')}`,
      object: 'charge',
      amount: 25000,
      amount_refunded: 25000,
      currency: 'usd',
      payment_intent: session.payment_intent,
      refunded: true,
      refunds: { object: 'list', data: [{ id: 're_dashboard', object: 'refund', amount: 25000 }], has_more: false },
    };
    const refunded = await sendWebhook(stripeApp, stripeEvent('charge.refunded', charge));
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await trackedPayments(flowId))[0]).toMatchObject({
      status: 'refunded',
      refund_id: 're_dashboard',
      refunded_at: expect.any(Date),
    });
    // the lead hears of a refund made in the dashboard too; Stripe's retry of the event adds nothing
    const { lead_id: leadId } = (await trackedPayments(flowId))[0];
    expect(await emailsOf(leadId, 'refund_confirmation')).toEqual([
      expect.objectContaining({
        subject: 'Your $250.00 payment has been refunded',
        text_body: expect.stringContaining('refunded in full'),
      }),
    ]);
    expect((await sendWebhook(stripeApp, stripeEvent('charge.refunded', charge))).statusCode).toBe(200);
    expect(await emailsOf(leadId, 'refund_confirmation')).toHaveLength(1);

    const unknown = stripeEvent('customer.created', { id: 'cus_123', object: 'customer' });
    const ignored = await sendWebhook(stripeApp, unknown);
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json()).toEqual({ received: true });
    const receipts = await pool.query('SELECT type FROM webhook_receipts WHERE event_id = $1', [unknown.id]);
    expect(receipts.rows).toEqual([{ type: 'customer.created' }]);
  });
});

describe('test-payment mode', () => {
  it('the deposit choice alone records a succeeded test payment and confirms the flow about 1 s later', async () => {
    await testModeWorkers();
    // the receipt's booking link: the coach's page, carrying the flow's booking reference
    await pool.query(
      "INSERT INTO integration_settings (key, enabled, configured, value) VALUES ('scheduling', true, true, 'https://calendly.com/coach/45')",
    );
    onTestFinished(() => pool.query("DELETE FROM integration_settings WHERE key = 'scheduling'").then(() => undefined));
    const started = Date.now();
    const { flowId, leadId } = await flowAtPayment('book_call', 'test-pay');
    await until(async () => (await trackedPayments(flowId)).length === 1);
    const [payment] = await trackedPayments(flowId);
    expect(payment).toMatchObject({
      payment_intent_id: expect.stringMatching(/^pi_test_/),
      status: 'succeeded',
      test_mode: true,
      lead_id: leadId,
      purpose: 'deposit',
      amount_cents: 25000,
    });
    expect((await flowState(flowId)).state).toBe('payment');

    await until(async () => (await flowState(flowId)).state === 'payment_success.confirmed', 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((await flowState(flowId)).context.session.paymentIntentId).toBe(payment.payment_intent_id);
    expect(sessionsOf(flowId)).toEqual([]);

    const verified = await asOwner(testApp)(`/api/payments/verify?paymentIntentId=${payment.payment_intent_id}`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ success: true, status: 'succeeded', purpose: 'deposit', amountCents: 25000, testMode: true });

    // the receipt the deposit screen promises, once
    await until(
      async () =>
        (await emailsOf(leadId, 'deposit_receipt')).length === 1 && (await emailsOf(leadId, 'deposit_receipt'))[0].status === 'recorded',
    );
    const [receipt] = await emailsOf(leadId, 'deposit_receipt');
    expect(receipt.subject).toBe('Receipt: your $250.00 refundable deposit');
    expect(receipt.text_body).toContain('Amount: $250.00 USD');
    expect(receipt.text_body).toContain(`Reference: ${payment.payment_intent_id}`);
    expect(receipt.text_body).toContain('Payment: Test payment: no money moved');
    expect(receipt.text_body).toContain('100% refundable');
    const link = new URL(/Book your 45-minute strategy session: (\S+)/.exec(receipt.text_body)![1]!);
    const reference = await bookingReferenceFor(pool, flowId);
    expect(link.origin + link.pathname).toBe('https://calendly.com/coach/45');
    expect([link.searchParams.get('utm_content'), link.searchParams.get('metadata[ref]')]).toEqual([reference, reference]);
    expect(reference).toMatch(/^[0-9a-f]{32}$/);
  });

  it("create-payment answers the product's test shape once confirmed; a double click gets the same payment", async () => {
    await testModeWorkers();
    const { flowId } = await flowAtNextStep('homework', 'test-adapter');
    const [first, second] = await Promise.all([createPayment(testApp, { flowId }), createPayment(testApp, { flowId })]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    const [payment] = await trackedPayments(flowId);
    expect(first.json()).toEqual({ mode: 'test', paymentIntentId: payment.payment_intent_id });
    expect(second.json()).toEqual(first.json());
    expect(await trackedPayments(flowId)).toHaveLength(1);
    expect(await countEvents(flowId, 'PAY_FOR_HOMEWORK')).toBe(1);
    // paid homework: the confirmation sends the homework
    expect((await flowState(flowId)).state).toBe('homework_processing.sending');
  });

  it('paid homework gets its receipt, like a deposit: what was bought, the amount, date, reference and refund terms', async () => {
    await testModeWorkers();
    const { flowId, leadId } = await flowAtPayment('homework', 'homework-receipt');
    await until(async () => (await trackedPayments(flowId)).length === 1);
    const [payment] = await trackedPayments(flowId);
    expect(payment).toMatchObject({ purpose: 'paid_homework', status: 'succeeded', amount_cents: 25000 });
    await until(async () => (await emailsOf(leadId, 'deposit_receipt'))[0]?.status === 'recorded', 10_000);
    const receipts = await emailsOf(leadId, 'deposit_receipt');
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    expect(receipt.subject).toBe('Receipt: your $250.00 payment for your leadership homework');
    expect(receipt.text_body).toContain('Purchase: Four-week leadership homework programme (refundable deposit)');
    expect(receipt.text_body).toContain('Amount: $250.00 USD');
    expect(receipt.text_body).toContain(`Paid on: ${new Date(payment.created_at).toUTCString()}`);
    expect(receipt.text_body).toContain(`Reference: ${payment.payment_intent_id}`);
    expect(receipt.text_body).toContain('100% refundable');
    // a receipt, not a booking page: paid homework holds no session
    expect(receipt.text_body).not.toContain('strategy session:');
  });
});

describe('verifyPayment', () => {
  it('answers 400 without an id and 404 for an unknown one', async () => {
    const neither = await asOwner(stripeApp)('/api/payments/verify');
    expect(neither.statusCode).toBe(400);
    expect(neither.json().fields).toHaveProperty('paymentIntentId');
    const unknown = await asOwner(stripeApp)('/api/payments/verify?paymentIntentId=pi_unknown');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No payment with that id.');
  });
});

describe('refunds (admin)', () => {
  it('refunds a test payment once: 401 without a session, 403 without the CSRF header, then 200, then 409', async () => {
    await testModeWorkers();
    const { flowId } = await flowAtNextStep('book_call', 'refund-test');
    expect((await createPayment(testApp, { flowId })).statusCode).toBe(200);
    const [payment] = await trackedPayments(flowId);
    const url = `/api/admin/payments/${payment.id}/refund`;
    const headers = await adminHeaders();

    expect((await asOwner(testApp)({ method: 'POST', url })).statusCode).toBe(401);
    const noCsrf = await asOwner(testApp)({ method: 'POST', url, headers: { cookie: headers.cookie } });
    expect(noCsrf.statusCode).toBe(403);
    expect((await trackedPayments(flowId))[0].status).toBe('succeeded');

    const refunded = await asOwner(testApp)({ method: 'POST', url, headers });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({
      id: payment.id,
      status: 'refunded',
      testMode: true,
      refundId: expect.stringMatching(/^re_test_/),
    });
    expect(refunded.json().refundedAt).toBeTruthy();
    expect((await trackedPayments(flowId))[0]).toMatchObject({ status: 'refunded', refund_id: refunded.json().refundId });

    const again = await asOwner(testApp)({ method: 'POST', url, headers });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Only a succeeded payment can be refunded; this one is refunded.');

    // the lead is told, once, in the refund's own transaction
    const refundEmails = await emailsOf(payment.lead_id, 'refund_confirmation');
    expect(refundEmails).toHaveLength(1);
    expect(refundEmails[0]).toMatchObject({ subject: 'Your $250.00 payment has been refunded' });
    expect(refundEmails[0].text_body).toContain('It was a test payment, so no money moved.');
  });

  it('refunds a Stripe payment at Stripe with an idempotency key; a pending checkout cannot be refunded', async () => {
    const headers = await adminHeaders();
    const { flowId, session: opened } = await checkoutFor('book_call', 'refund-stripe');
    const session = paidSession(opened);
    const [pending] = await trackedPayments(flowId);
    const early = await asOwner(stripeApp)({ method: 'POST', url: `/api/admin/payments/${pending.id}/refund`, headers });
    expect(early.statusCode).toBe(409);

    await sendWebhook(stripeApp, stripeEvent('checkout.session.completed', session));
    const before = fake.requests.length;
    const refunded = await asOwner(stripeApp)({ method: 'POST', url: `/api/admin/payments/${pending.id}/refund`, headers });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const sent = fake.requests.slice(before);
    expect(sent).toEqual([
      { method: 'POST', path: '/v1/refunds', form: { payment_intent: session.payment_intent }, idempotencyKey: `refund-${pending.id}` },
    ]);
    expect(refunded.json()).toMatchObject({ status: 'refunded', testMode: false, refundId: expect.stringMatching(/^re_/) });
    expect((await trackedPayments(flowId))[0].refund_id).toBe(refunded.json().refundId);
  });
});

describe('OpenAPI', () => {
  it('documents the payment routes', async () => {
    const document = (await asOwner(stripeApp)('/api/docs/json')).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/functions/create-payment',
        '/api/stripe/webhook',
        '/api/payments/verify',
        '/api/admin/payments/{id}/refund',
      ]),
    );
    expect(document.paths['/api/functions/create-payment'].post.tags).toEqual(['payments']);
  });
});
