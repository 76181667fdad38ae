// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssessmentFlowEvent } from '#machines/protocol/assessment-flow.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { Tier } from '#machines/protocol/common.js';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import type { PublicConfig } from '#web/lib/flows/client.js';
import { useFlowSnapshot } from '#web/lib/flows/use-server-flow.js';
import { topStep } from '../titles.js';
import { confirmedFlow, flowAtResults, knownVisitorFlow } from './flow.fixtures.js';
import { StepScreen } from './step-screen.js';

const CONFIG: PublicConfig = {
  ...DEFAULT_SITE_SETTINGS,
  paymentMode: 'test',
  depositCents: 25_000,
  mirrorEngine: 'built-in',
  bookingUrl: 'https://booking.example/coach',
};

beforeEach(() => {
  // the community link's site settings stay the defaults: no server here
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new Error('offline'))),
  );
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The flow at the results of `tier`, continued to its next step, rendered as the modal renders each step. */
function renderNextStep(tier: Tier) {
  const { actor } = flowAtResults(tier);
  actor.send({ type: 'CONTINUE' });
  const send = vi.fn((event: AssessmentFlowEvent) => {
    const before = actor.getSnapshot();
    actor.send(event);
    return actor.getSnapshot() !== before;
  });
  const flow = confirmedFlow(send);
  function Modal() {
    const { context, value } = useFlowSnapshot(actor);
    return (
      <StepScreen
        flow={flow}
        mode="assessment"
        step={topStep(value)}
        state={statePath(value)}
        context={context}
        display={{ result: context.result, graded: 'server', pending: false }}
        config={CONFIG}
        depositCents={CONFIG.depositCents}
        onChoosePayment={(type) => send({ type })}
      />
    );
  }
  render(<Modal />);
  return { actor, send, step: () => statePath(actor.getSnapshot().value) };
}

describe('the next step after the results', () => {
  it('book_call: the refundable deposit, then the booking link with the visitor filled in', async () => {
    const user = userEvent.setup();
    // the server issues the flow's booking reference to its visitor once the deposit is paid
    const reference = '0123456789abcdef0123456789abcdef';
    const fetched = vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/booking-reference')
          ? new Response(JSON.stringify({ reference }), { status: 200, headers: { 'content-type': 'application/json' } })
          : new Response('{}', { status: 503 }),
      ),
    );
    vi.stubGlobal('fetch', fetched);
    const { actor, send, step } = renderNextStep('book_call');
    expect(screen.getByText('One to one · 45 minutes')).toBeTruthy();
    expect(screen.getByText('$250')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Pay $250 Refundable Deposit' }));
    expect(send).toHaveBeenLastCalledWith({ type: 'PAY_DEPOSIT' });
    expect(step()).toBe('payment');
    expect(screen.getByRole('status').textContent).toContain('Confirming your payment');

    act(() => actor.send({ type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_test_1' }));
    expect(
      screen.getByText(/Your \$250 refundable deposit has been received, and a receipt is on its way to ada@example\.com\./),
    ).toBeTruthy();
    const booking = screen.getByRole('link', { name: /Book your 45-minute strategy session/ });
    const href = new URL(booking.getAttribute('href')!);
    expect(href.origin + href.pathname).toBe('https://booking.example/coach');
    expect(href.searchParams.get('email')).toBe('ada@example.com');
    expect(booking.getAttribute('target')).toBe('_blank');
    await waitFor(() => expect(new URL(booking.getAttribute('href')!).searchParams.get('utm_content')).toBe(reference));
    expect(new URL(booking.getAttribute('href')!).searchParams.get('metadata[ref]')).toBe(reference);
    expect(fetched.mock.calls.filter(([url]) => url.endsWith('/booking-reference'))).toHaveLength(1);

    booking.addEventListener('click', (event) => event.preventDefault());
    await user.click(booking);
    expect(send).toHaveBeenLastCalledWith({ type: 'BOOK_SESSION' });
    expect(step()).toBe('payment_success.booking_opened');
    expect(screen.getByText(/Your booking page opened in a new tab/)).toBeTruthy();

    // the provider reports the booking (the server sends SESSION_BOOKED): the page says so, with no link left to book
    act(() => actor.send({ type: 'SESSION_BOOKED', provider: 'calendly', startsAt: '2026-12-01T15:00:00.000Z' }));
    expect(step()).toBe('payment_success.booked');
    expect(screen.getByRole('status').textContent).toContain('Your 45-minute strategy session is booked');
    expect(screen.queryByRole('link', { name: /Book your 45-minute strategy session/ })).toBeNull();
    // a cancellation brings the booking link back
    act(() => actor.send({ type: 'SESSION_CANCELED', provider: 'calendly' }));
    expect(screen.getByRole('link', { name: /Book your 45-minute strategy session/ })).toBeTruthy();
  });

  it('book_call: back to the results', async () => {
    const user = userEvent.setup();
    const { send, step } = renderNextStep('book_call');
    await user.click(screen.getByRole('button', { name: 'Back to Results' }));
    expect(send).toHaveBeenLastCalledWith({ type: 'BACK_TO_RESULTS' });
    expect(step()).toBe('results');
  });

  it('homework: paid homework or free resources, then the resources sent', async () => {
    const user = userEvent.setup();
    const { actor, send, step } = renderNextStep('homework');
    expect(screen.getByText('A plan written for your results')).toBeTruthy();
    expect(screen.getByText(/Pay the \$250 refundable deposit and we email you homework/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay Deposit and Get Homework' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Send Me Free Resources' }));
    expect(send).toHaveBeenLastCalledWith({ type: 'CHOOSE_FREE_RESOURCES' });
    expect(step()).toBe('homework_processing.sending');
    expect(screen.getByRole('status').textContent).toBe('Sending your resourcesOn their way to ada@example.com.');

    act(() => actor.send({ type: 'HOMEWORK_SENT' }));
    expect(screen.getByText('Check your inbox')).toBeTruthy();
    expect(screen.getByText(/Your free resources are on their way to ada@example\.com\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'See Your Results' }));
    expect(send).toHaveBeenLastCalledWith({ type: 'VIEW_RESULTS' });
    expect(topStep(actor.getSnapshot().value)).toBe('completed_results');
  });

  it('homework: the paid homework starts the deposit', async () => {
    const user = userEvent.setup();
    const { send, step } = renderNextStep('homework');
    await user.click(screen.getByRole('button', { name: 'Pay Deposit and Get Homework' }));
    expect(send).toHaveBeenLastCalledWith({ type: 'PAY_FOR_HOMEWORK' });
    expect(step()).toBe('payment');
  });

  it('nurture: the free community, opened in a new tab, then welcomed', async () => {
    const user = userEvent.setup();
    const { send, step } = renderNextStep('nurture');
    expect(screen.getByText('Monthly live Q&A sessions with the coach')).toBeTruthy();
    const join = screen.getByRole('link', { name: /Join the Free Community/ });
    expect(join.getAttribute('href')).toBe(DEFAULT_SITE_SETTINGS.communityUrl);
    expect(join.textContent).toContain('(opens in a new tab)');

    join.addEventListener('click', (event) => event.preventDefault());
    await user.click(join);
    expect(send).toHaveBeenLastCalledWith({ type: 'JOIN_COMMUNITY' });
    expect(step()).toBe('no_flow.joined');
    expect(screen.getByText('Welcome aboard')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Open the Community Again/ }).getAttribute('href')).toBe(DEFAULT_SITE_SETTINGS.communityUrl);
  });
});

describe('the diagnostic step', () => {
  it.each([true, false])('starts its own flow as a test flow exactly when the assessment is one (testing %s)', async (testing) => {
    // the start is all this needs: the answer never comes
    const fetched = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(() => new Promise(() => {}));
    vi.stubGlobal('fetch', fetched);
    const { actor } = knownVisitorFlow({ testingMode: testing });
    const { context, value } = actor.getSnapshot();
    expect(statePath(value)).toBe('diagnostic');
    render(
      <StepScreen
        flow={{ ...confirmedFlow(() => true), serverState: 'diagnostic' }}
        mode="assessment"
        step="diagnostic"
        state="diagnostic"
        context={context}
        display={{ result: null, graded: 'server', pending: false }}
        config={CONFIG}
        depositCents={CONFIG.depositCents}
        onChoosePayment={() => {}}
      />,
    );
    await waitFor(() => expect(fetched.mock.calls.some(([url]) => String(url).endsWith('/api/flows'))).toBe(true));
    const [, init] = fetched.mock.calls.find(([url]) => String(url).endsWith('/api/flows'))!;
    expect(JSON.parse(init!.body as string)).toMatchObject({ machine: 'diagnostic', testing });
  });
});
