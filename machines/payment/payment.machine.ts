import { assign, fromPromise, setup } from 'xstate';
import type { Notice } from '../protocol/common.js';
import type { PaymentEvent, PaymentFailureReason, PaymentPurpose } from '../protocol/payment.js';

/** The refundable deposit, and the test payment's amount, in cents (spec section 9: $250, 25000). */
export const DEPOSIT_AMOUNT_CENTS = 25_000;

/** The message for each way a payment can fail, word for word from spec sections 2 and 8. */
export const paymentFailureNotices: Readonly<Record<PaymentFailureReason, Notice>> = {
  start_failed: {
    title: 'Payment Failed',
    description: 'There was an issue starting your checkout. Please try again.',
  },
  canceled: { title: null, description: 'Your checkout was canceled. You can restart the process anytime.' },
  verification_failed: { title: 'Payment verification failed', description: 'Please contact support.' },
  error: { title: 'Error', description: 'Failed to process your request. Please contact support.' },
  test_failed: { title: 'Test Payment Failed', description: null },
};

/** Where a payment attempt starts: a purpose, and an intent id when returning from checkout. */
export interface PaymentInput {
  purpose: PaymentPurpose;
  paymentIntentId?: string | null;
}

/** What one payment attempt holds. */
export interface PaymentContext {
  purpose: PaymentPurpose;
  paymentIntentId: string | null;
  checkoutUrl: string | null;
  failure: PaymentFailureReason | null;
}

/** What the payment provider's verification says about an intent. */
export interface PaymentVerification {
  success: boolean;
}

/**
 * One deposit attempt (spec section 4, "Payment"): a test payment records its local flags and
 * succeeds after 1 s; a real deposit opens the provider's checkout in a new tab and is verified
 * when the visitor returns with a payment-intent id. The web provides the actors and
 * `openCheckout`; the default actors reject, so nothing ever looks paid by accident.
 */
export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    input: {} as PaymentInput,
    output: {} as { paymentIntentId: string | null },
  },
  actors: {
    recordTestPayment: fromPromise<{ paymentIntentId: string }, { purpose: PaymentPurpose; amountCents: number }>(
      async () => {
        throw new Error('recordTestPayment is not provided');
      },
    ),
    startCheckout: fromPromise<{ url: string | null }, { purpose: PaymentPurpose }>(async () => {
      throw new Error('startCheckout is not provided');
    }),
    verifyPayment: fromPromise<PaymentVerification, { paymentIntentId: string }>(async () => {
      throw new Error('verifyPayment is not provided');
    }),
  },
  actions: {
    openCheckout: (_, _params: { url: string }) => {},
    fail: assign((_, params: { reason: PaymentFailureReason }) => ({ failure: params.reason })),
  },
  guards: {
    hasPaymentIntent: ({ context }) => context.paymentIntentId !== null,
  },
  delays: {
    testSettle: 1000,
  },
}).createMachine({
  id: 'payment',
  context: ({ input }) => ({
    purpose: input.purpose,
    paymentIntentId: input.paymentIntentId ?? null,
    checkoutUrl: null,
    failure: null,
  }),
  initial: 'opening',
  states: {
    opening: {
      always: [{ guard: 'hasPaymentIntent', target: 'verifying' }, { target: 'idle' }],
    },
    idle: {
      on: {
        PAY_TEST: { target: 'testPaying' },
        PAY_DEPOSIT: { target: 'startingCheckout' },
      },
    },
    testPaying: {
      invoke: {
        src: 'recordTestPayment',
        input: ({ context }) => ({ purpose: context.purpose, amountCents: DEPOSIT_AMOUNT_CENTS }),
        onDone: {
          target: 'testSettling',
          actions: assign({ paymentIntentId: ({ event }) => event.output.paymentIntentId }),
        },
        onError: { target: 'failed', actions: { type: 'fail', params: { reason: 'test_failed' } } },
      },
    },
    testSettling: {
      after: { testSettle: { target: 'succeeded' } },
    },
    startingCheckout: {
      invoke: {
        src: 'startCheckout',
        input: ({ context }) => ({ purpose: context.purpose }),
        onDone: [
          {
            // A named function, because done events cannot be typed in setup's guards and the
            // generated diagram labels a guard by its name.
            guard: function hasCheckoutUrl({ event }) {
              return Boolean(event.output.url);
            },
            target: 'awaitingCheckout',
            actions: [
              assign({ checkoutUrl: ({ event }) => event.output.url }),
              { type: 'openCheckout', params: ({ event }) => ({ url: event.output.url ?? '' }) },
            ],
          },
          { target: 'failed', actions: { type: 'fail', params: { reason: 'start_failed' } } },
        ],
        onError: { target: 'failed', actions: { type: 'fail', params: { reason: 'start_failed' } } },
      },
    },
    awaitingCheckout: {
      on: {
        CHECKOUT_RETURNED: {
          target: 'verifying',
          actions: assign({ paymentIntentId: ({ event }) => event.paymentIntentId }),
        },
        CHECKOUT_CANCELED: { target: 'failed', actions: { type: 'fail', params: { reason: 'canceled' } } },
      },
    },
    verifying: {
      invoke: {
        src: 'verifyPayment',
        // Both ways in set the intent id first; an empty one would fail verification, not pass it.
        input: ({ context }) => ({ paymentIntentId: context.paymentIntentId ?? '' }),
        onDone: [
          {
            guard: function isVerified({ event }) {
              return event.output.success;
            },
            target: 'succeeded',
          },
          { target: 'failed', actions: { type: 'fail', params: { reason: 'verification_failed' } } },
        ],
        onError: { target: 'failed', actions: { type: 'fail', params: { reason: 'error' } } },
      },
    },
    failed: {
      on: {
        RETRY: { target: 'idle', actions: assign({ failure: null, checkoutUrl: null, paymentIntentId: null }) },
      },
    },
    succeeded: { type: 'final' },
  },
  output: ({ context }) => ({ paymentIntentId: context.paymentIntentId }),
});
