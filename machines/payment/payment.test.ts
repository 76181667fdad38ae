import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { canAccept } from '../protocol/can-accept.js';
import { paymentEventSchema, type PaymentPurpose } from '../protocol/payment.js';
import {
  DEPOSIT_AMOUNT_CENTS,
  paymentFailureNotices,
  paymentMachine,
  type PaymentInput,
  type PaymentVerification,
} from './payment.machine.js';

interface Fakes {
  checkoutUrl?: string | null;
  startFails?: boolean;
  verification?: PaymentVerification | Error;
  testFails?: boolean;
}

function start(input: PaymentInput, fakes: Fakes = {}) {
  const clock = new SimulatedClock();
  const openCheckout = vi.fn();
  const verified: string[] = [];
  const tested: { purpose: PaymentPurpose; amountCents: number }[] = [];
  const machine = paymentMachine.provide({
    actions: { openCheckout: (_, params) => openCheckout(params.url) },
    actors: {
      recordTestPayment: fromPromise(async ({ input }) => {
        tested.push(input);
        if (fakes.testFails) throw new Error('storage full');
        return { paymentIntentId: 'test_pi_1' };
      }),
      startCheckout: fromPromise(async () => {
        if (fakes.startFails) throw new Error('provider down');
        return { url: fakes.checkoutUrl === undefined ? 'https://checkout.test/s/1' : fakes.checkoutUrl };
      }),
      verifyPayment: fromPromise(async ({ input }) => {
        verified.push(input.paymentIntentId);
        const verification = fakes.verification ?? { success: true };
        if (verification instanceof Error) throw verification;
        return verification;
      }),
    },
  });
  const actor = createActor(machine, { input, clock }).start();
  return { actor, clock, openCheckout, verified, tested, machine };
}

describe('payment', () => {
  it('succeeds a test payment exactly 1 s after its flags are recorded', async () => {
    const { actor, clock, tested } = start({ purpose: 'deposit' });
    actor.send({ type: 'PAY_TEST' });
    await waitFor(actor, (s) => s.matches('testSettling'));
    expect(tested).toEqual([{ purpose: 'deposit', amountCents: DEPOSIT_AMOUNT_CENTS }]);
    clock.increment(999);
    expect(actor.getSnapshot().value).toBe('testSettling');
    clock.increment(1);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ paymentIntentId: 'test_pi_1' });
  });

  it('reports a failed test payment as Test Payment Failed', async () => {
    const { actor } = start({ purpose: 'deposit' }, { testFails: true });
    actor.send({ type: 'PAY_TEST' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(paymentFailureNotices[actor.getSnapshot().context.failure!].title).toBe('Test Payment Failed');
  });

  it('opens the checkout for a real deposit and verifies on return', async () => {
    const { actor, openCheckout, verified } = start({ purpose: 'paid_homework' });
    actor.send({ type: 'PAY_DEPOSIT' });
    await waitFor(actor, (s) => s.matches('awaitingCheckout'));
    expect(openCheckout).toHaveBeenCalledWith('https://checkout.test/s/1');
    actor.send({ type: 'CHECKOUT_RETURNED', paymentIntentId: 'pi_123' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(verified).toEqual(['pi_123']);
    expect(actor.getSnapshot().output).toEqual({ paymentIntentId: 'pi_123' });
  });

  it('verifies at once when opened with an intent id (the payment-success page)', async () => {
    const { actor, verified } = start({ purpose: 'deposit', paymentIntentId: 'pi_9' });
    expect(actor.getSnapshot().value).toBe('verifying');
    await waitFor(actor, (s) => s.status === 'done');
    expect(verified).toEqual(['pi_9']);
  });

  it.each([
    ['no checkout url', { checkoutUrl: null }, 'start_failed'],
    ['checkout start error', { startFails: true }, 'start_failed'],
  ] as const)('fails with start_failed on %s', async (_, fakes, reason) => {
    const { actor, openCheckout } = start({ purpose: 'deposit' }, fakes);
    actor.send({ type: 'PAY_DEPOSIT' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.failure).toBe(reason);
    expect(openCheckout).not.toHaveBeenCalled();
  });

  it.each([
    ['unsuccessful', { success: false }, 'verification_failed', 'Payment verification failed'],
    ['throwing', new Error('boom'), 'error', 'Error'],
  ] as const)('fails a %s verification', async (_, verification, reason, title) => {
    const { actor } = start({ purpose: 'deposit', paymentIntentId: 'pi_1' }, { verification });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.failure).toBe(reason);
    expect(paymentFailureNotices[reason].title).toBe(title);
  });

  it('treats a canceled checkout as a failure that can be retried', async () => {
    const { actor, machine } = start({ purpose: 'deposit' });
    actor.send({ type: 'PAY_DEPOSIT' });
    await waitFor(actor, (s) => s.matches('awaitingCheckout'));
    actor.send({ type: 'CHECKOUT_CANCELED' });
    expect(actor.getSnapshot().context.failure).toBe('canceled');
    expect(canAccept(machine, actor.getSnapshot(), { type: 'PAY_DEPOSIT' })).toBe(false);
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'idle', context: { failure: null, checkoutUrl: null } });
  });

  it('ignores events that do not belong to the current state', () => {
    const { actor, machine } = start({ purpose: 'deposit' });
    const idle = actor.getSnapshot();
    for (const event of [{ type: 'RETRY' }, { type: 'CHECKOUT_CANCELED' }] as const) {
      expect(canAccept(machine, idle, event)).toBe(false);
    }
    expect(canAccept(machine, idle, { type: 'CHECKOUT_RETURNED', paymentIntentId: 'pi' })).toBe(false);
  });

  it('validates events at the edge', () => {
    expect(paymentEventSchema.safeParse({ type: 'CHECKOUT_RETURNED', paymentIntentId: '' }).success).toBe(false);
    expect(paymentEventSchema.safeParse({ type: 'PAY_TEST' }).success).toBe(true);
  });
});
