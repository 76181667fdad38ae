import type { FlowSnapshotResponse } from '#machines/protocol/api.js';
import { paymentFailureNotices } from '#machines/protocol/payment.js';
import { assessmentSessionOf, checkoutUrlOf, noticeOf } from '#machines/protocol/snapshots.js';
import { FlowConflictError, FlowNotFoundError } from '#core/flows/flow-store.js';
import { waitForFlow } from '#core/flows/wait-for-flow.js';
import { HttpError } from '#core/http-error.js';
import type { RouteDeps } from '../routes/deps.js';
import { ownedFlow } from '../visitors/owned.js';

/** How long create-payment waits for the checkout's url or the test confirmation (Stripe answers in seconds). */
const CREATE_PAYMENT_WAIT_MS = 30_000;

/** The deposit each next step takes: the strategy session's, or paid homework's. */
const CHOICE_AT: Readonly<Record<string, string>> = { yes_flow: 'PAY_DEPOSIT', maybe_flow: 'PAY_FOR_HOMEWORK' };

/** What create-payment answers: the checkout's url, or the test payment. */
export type PaymentStartAnswer = { mode: 'stripe'; url: string } | { mode: 'test'; paymentIntentId: string };

/** The checkout did not start (502), or not within the wait (504); the message is the spec's, for the visitor. */
export class CheckoutNotStartedError extends Error {
  constructor(readonly statusCode: 502 | 504) {
    super(paymentFailureNotices.start_failed.description!);
    this.name = 'CheckoutNotStartedError';
  }
}

type Outcome = { kind: 'started'; answer: PaymentStartAnswer } | { kind: 'starting' } | { kind: 'failed' } | { kind: 'elsewhere' };

const START_FAILURES = [paymentFailureNotices.start_failed.description, paymentFailureNotices.test_failed.title];

/** Where the flow's payment attempt stands, read from its state and snapshot. */
function outcomeOf(flow: FlowSnapshotResponse, mode: 'stripe' | 'test'): Outcome {
  if (flow.state === 'payment') {
    const url = checkoutUrlOf(flow.snapshot);
    return url ? { kind: 'started', answer: { mode: 'stripe', url } } : { kind: 'starting' };
  }
  const paymentIntentId = assessmentSessionOf(flow.snapshot)?.paymentIntentId;
  const paid = flow.state.startsWith('payment_success') || flow.state.startsWith('homework_processing');
  if (mode === 'test' && paid && paymentIntentId) return { kind: 'started', answer: { mode: 'test', paymentIntentId } };
  const notice = noticeOf(flow.snapshot);
  if (CHOICE_AT[flow.state] && notice && (START_FAILURES.includes(notice.description) || START_FAILURES.includes(notice.title))) {
    return { kind: 'failed' };
  }
  return { kind: 'elsewhere' };
}

/**
 * create-payment as an adapter: on the visitor's own flow standing at yes_flow or
 * maybe_flow it applies PAY_DEPOSIT or PAY_FOR_HOMEWORK (a flow already at `payment` keeps the
 * attempt under way), then waits for what the flow's payments job reports: the checkout's url, or
 * in test-payment mode the confirmation. Nothing is started here: the flow's startPayment effect
 * does it, as it does for a browser that sends the event itself. A stranger's flow is not found.
 */
export async function createPayment(
  deps: RouteDeps,
  visitorId: string | null,
  flowId: string,
  mode: 'stripe' | 'test',
): Promise<PaymentStartAnswer> {
  const owned = await ownedFlow(deps.pool, visitorId, flowId, 'assessmentFlow');
  if (!owned) throw new FlowNotFoundError(flowId);
  const choice = CHOICE_AT[owned.state];
  if (choice) {
    try {
      await deps.engine.apply(flowId, { type: choice }, 'client', { visitorId });
    } catch (error) {
      // a second click got there first: wait on the attempt it started
      if (!(error instanceof FlowConflictError) || error.flow.state !== 'payment') throw error;
    }
  } else if (owned.state !== 'payment') {
    // asked again once paid: the test payment it already made
    const done = outcomeOf({ flowId, machine: owned.machine, version: owned.version, state: owned.state, snapshot: owned.snapshot }, mode);
    if (done.kind === 'started') return done.answer;
    throw new HttpError(409, `This assessment cannot take a deposit now (it is at ${owned.state}).`);
  }
  const flow = await waitForFlow(deps, flowId, (f) => outcomeOf(f, mode).kind !== 'starting', CREATE_PAYMENT_WAIT_MS);
  const outcome = outcomeOf(flow, mode);
  switch (outcome.kind) {
    case 'started':
      return outcome.answer;
    case 'failed':
      throw new CheckoutNotStartedError(502);
    case 'starting':
      throw new CheckoutNotStartedError(504);
    case 'elsewhere':
      throw new HttpError(409, `This assessment cannot take a deposit now (it is at ${flow.state}).`);
  }
}
