import { useEffect, useRef, useState } from 'react';
import { Button, cx } from '#web/components/ui/index.js';
import type { Notice } from '#machines/protocol/common.js';
import type { PaymentPurpose } from '#machines/protocol/payment.js';
import { recordCheckoutStart } from '../browser-storage.js';
import { useSiteSettings } from '#web/lib/site-settings.js';
import { schedulingUrl } from '../links.js';
import { DoneMark, NoticeBox, Spinner, StepEyebrow, Waiting } from '../ui.js';

/** Deposit in dollars for display ($250). */
const formatDeposit = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 0 })}`;

function OutLink({
  href,
  onClick,
  children,
  variant = 'primary',
}: {
  href: string;
  onClick?: () => void;
  children: string;
  variant?: 'primary' | 'secondary';
}) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={onClick}
      className={cx(
        'inline-flex min-h-13 items-center justify-center gap-2 rounded-full px-7 text-base font-semibold tracking-tight transition-colors',
        variant === 'primary'
          ? 'bg-ink text-white shadow-soft hover:bg-ink-800'
          : 'border border-ink/25 bg-white/60 text-ink hover:border-ink/50 hover:bg-white',
      )}
    >
      {children}
      <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
        <path d="M11 3a1 1 0 1 0 0 2h2.59l-6.3 6.29a1 1 0 1 0 1.42 1.42L15 6.41V9a1 1 0 1 0 2 0V4a1 1 0 0 0-1-1h-5Z" />
        <path d="M5 5a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2v-3a1 1 0 1 0-2 0v3H5V7h3a1 1 0 0 0 0-2H5Z" />
      </svg>
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

function BackToResults({ onBack }: { onBack: () => void }) {
  return (
    <Button variant="ghost" onClick={onBack}>
      Back to Results
    </Button>
  );
}

/** From where a path ended (deposit paid, homework sent, community joined): the results again. */
function SeeResults({ onView }: { onView: () => void }) {
  return (
    <Button variant="ghost" onClick={onView}>
      See Your Results
    </Button>
  );
}

/**
 * A tab opened in the click that chose a real (Stripe) deposit, so the checkout can load in it
 * once the server has a url: a tab opened later, after the round trips, would be a popup the
 * browser blocks.
 */
let checkoutTab: Window | null = null;

/** Opens the checkout's tab now, inside the visitor's click (Stripe mode only). */
export function openCheckoutTab(): void {
  checkoutTab = window.open('about:blank', '_blank');
}

/** The tab opened for the checkout, if it is still open; it is handed over once. */
function takeCheckoutTab(): Window | null {
  const tab = checkoutTab && !checkoutTab.closed ? checkoutTab : null;
  checkoutTab = null;
  return tab;
}

/** Closes a checkout tab that never got its url (the payment was canceled or could not start). */
export function closeUnusedCheckoutTab(): void {
  takeCheckoutTab()?.close();
}

/** yes_flow: the strategy session and its refundable deposit. */
export function YesFlowStep({
  notice,
  depositCents,
  onPay,
  onBack,
}: {
  notice: Notice | null;
  depositCents: number;
  onPay: () => void;
  onBack: () => void;
}) {
  const deposit = formatDeposit(depositCents);
  return (
    <div className="flex flex-col gap-7">
      <NoticeBox notice={notice} />
      <div className="flex flex-col gap-3">
        <StepEyebrow>One to one · 45 minutes</StepEyebrow>
        <p className="text-lg leading-relaxed text-ink">
          A focused working session on your results: what is holding your leadership back, what to change first, and whether coaching is the
          right way to get there.
        </p>
      </div>
      <ul className="flex flex-col gap-2.5">
        {[
          'Walk through your archetype and six dimension scores together',
          'Leave with the two or three changes that matter most',
          'An honest view of whether a coaching engagement would help',
        ].map((line) => (
          <li key={line} className="flex gap-3 text-[0.95rem] leading-relaxed text-ink">
            <span className="mt-2 size-1.5 shrink-0 rounded-full bg-brass" aria-hidden="true" />
            {line}
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-4 rounded-3xl border border-brass/60 bg-sand p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="font-serif text-3xl text-ink">{deposit}</p>
          <p className="text-sm font-semibold text-brass-deep">100% refundable deposit</p>
        </div>
        <p className="text-sm leading-relaxed text-muted">
          The deposit holds your session and is refunded in full, whether or not you go on to work together.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <Button size="lg" onClick={onPay}>
            Pay {deposit} Refundable Deposit
          </Button>
          <BackToResults onBack={onBack} />
        </div>
      </div>
    </div>
  );
}

/** maybe_flow: paid homework or free resources. */
export function MaybeFlowStep({
  notice,
  depositCents,
  onPay,
  onFree,
  onBack,
}: {
  notice: Notice | null;
  depositCents: number;
  onPay: () => void;
  onFree: () => void;
  onBack: () => void;
}) {
  return (
    <div className="flex flex-col gap-7">
      <NoticeBox notice={notice} />
      <p className="text-lg leading-relaxed text-ink">Two ways to turn your results into progress. Choose the one that fits this season.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-3 rounded-3xl border border-brass/60 bg-sand p-6">
          <StepEyebrow>Personal homework</StepEyebrow>
          <p className="font-serif text-xl text-ink">A plan written for your results</p>
          <p className="flex-1 text-sm leading-relaxed text-muted">
            Pay the {formatDeposit(depositCents)} refundable deposit and we email you homework built on your archetype and scores, with your
            full report.
          </p>
          <Button onClick={onPay}>Pay Deposit and Get Homework</Button>
        </div>
        <div className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6">
          <StepEyebrow>Free resources</StepEyebrow>
          <p className="font-serif text-xl text-ink">Start on your own</p>
          <p className="flex-1 text-sm leading-relaxed text-muted">Our free guides for your archetype, sent to your inbox straight away.</p>
          <Button variant="secondary" onClick={onFree}>
            Send Me Free Resources
          </Button>
        </div>
      </div>
      <div>
        <BackToResults onBack={onBack} />
      </div>
    </div>
  );
}

/** no_flow: the free community. */
export function NoFlowStep({
  joined,
  onJoin,
  onBack,
  onViewResults,
}: {
  joined: boolean;
  onJoin: () => void;
  onBack: () => void;
  onViewResults: () => void;
}) {
  const { communityUrl } = useSiteSettings();
  if (joined) {
    return (
      <div className="flex flex-col items-center gap-5 py-6 text-center">
        <DoneMark />
        <p className="font-serif text-2xl text-ink">Welcome aboard</p>
        <p className="max-w-md text-base leading-relaxed text-muted">
          The community opened in a new tab. Introduce yourself and mention your archetype: you will find leaders working on the same
          things.
        </p>
        <OutLink href={communityUrl} variant="secondary">
          Open the Community Again
        </OutLink>
        <SeeResults onView={onViewResults} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-7">
      <p className="text-lg leading-relaxed text-ink">
        The best next step for you is momentum, not a big commitment. Our free community has practical resources, live Q&As and leaders
        working on exactly what your results describe.
      </p>
      <ul className="flex flex-col gap-2.5">
        {[
          'Monthly live Q&A sessions with the coach',
          'Guides and templates for each leadership archetype',
          'Peers to compare notes with, privately',
        ].map((line) => (
          <li key={line} className="flex gap-3 text-[0.95rem] leading-relaxed text-ink">
            <span className="mt-2 size-1.5 shrink-0 rounded-full bg-brass" aria-hidden="true" />
            {line}
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <OutLink href={communityUrl} onClick={onJoin}>
          Join the Free Community
        </OutLink>
        <BackToResults onBack={onBack} />
      </div>
    </div>
  );
}

/**
 * payment: the flow's payments job starts the deposit on the server. With Stripe the checkout's
 * url arrives in the snapshot (CHECKOUT_OPENED) and loads in the tab the click opened (or behind
 * a link when there is none); in test-payment mode the server confirms about a second later.
 * Either way PAYMENT_CONFIRMED arrives by push, and a checkout that could not start comes back as
 * the next step with the product's notice.
 */
export function PaymentStep({
  checkoutUrl,
  purpose,
  paymentMode,
  onCancel,
}: {
  /** The checkout the server opened for this attempt, once it has. */
  checkoutUrl: string | null;
  purpose: PaymentPurpose;
  paymentMode: 'test' | 'stripe' | null;
  onCancel: () => void;
}) {
  const loaded = useRef<string | null>(null);
  const [inTab, setInTab] = useState(false);

  useEffect(() => {
    if (!checkoutUrl || loaded.current === checkoutUrl) return;
    loaded.current = checkoutUrl;
    recordCheckoutStart(purpose);
    const tab = takeCheckoutTab();
    if (tab) {
      tab.opener = null;
      tab.location.href = checkoutUrl;
    }
    setInTab(tab !== null);
  }, [checkoutUrl, purpose]);

  if (checkoutUrl) {
    return (
      <div className="flex flex-col gap-6">
        <div className="flex items-center gap-4 rounded-3xl border border-line bg-sand p-5">
          <Spinner className="size-6 text-brass-deep" />
          <p className="text-base leading-relaxed text-ink">
            {inTab ? 'Complete your deposit in the secure checkout tab.' : 'Open the secure checkout to pay your deposit.'} This window
            updates by itself once your payment is confirmed.
          </p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <OutLink href={checkoutUrl}>{inTab ? 'Open Checkout Again' : 'Open Secure Checkout'}</OutLink>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }
  const confirming = paymentMode === 'test';
  return (
    <Waiting title={confirming ? 'Confirming your payment' : 'Starting your secure checkout'}>
      <p>{confirming ? 'This takes a moment. Please keep this window open.' : 'One moment please.'}</p>
    </Waiting>
  );
}

/** payment_success: the deposit (or paid homework) confirmed; then book the 45-minute session. */
export function PaymentSuccessStep({
  purpose,
  booked,
  notice,
  visitor,
  depositCents,
  bookingUrl,
  onBook,
  onViewResults,
}: {
  purpose: PaymentPurpose | null;
  booked: boolean;
  notice: Notice | null;
  visitor: { name: string | null; email: string | null };
  depositCents: number;
  bookingUrl: string | null;
  onBook: () => void;
  onViewResults: () => void;
}) {
  const homework = purpose === 'paid_homework';
  return (
    <div className="flex flex-col items-center gap-6 py-4 text-center">
      <DoneMark />
      <NoticeBox notice={notice} className="w-full text-left" />
      <p className="max-w-lg text-lg leading-relaxed text-ink">
        Your {formatDeposit(depositCents)} refundable deposit has been received
        {visitor.email ? `, and a receipt is on its way to ${visitor.email}` : ''}.
        {homework && !notice ? ' Your homework is in your inbox too.' : ''}
      </p>
      {!homework && (
        <>
          <p className="max-w-lg text-base leading-relaxed text-muted">
            {booked
              ? 'Your booking page opened in a new tab. Choose a time that suits you; we look forward to meeting you.'
              : 'One last step: choose a time for your session. Your name and email are already filled in.'}
          </p>
          <OutLink href={schedulingUrl(visitor, bookingUrl)} onClick={onBook} variant={booked ? 'secondary' : 'primary'}>
            Book your 45-minute strategy session
          </OutLink>
        </>
      )}
      <SeeResults onView={onViewResults} />
    </div>
  );
}

/** homework_processing: resources on their way, then sent. */
export function HomeworkStep({ sent, email, onViewResults }: { sent: boolean; email: string | null; onViewResults: () => void }) {
  if (!sent) return <Waiting title="Sending your resources">{email ? <p>On their way to {email}.</p> : null}</Waiting>;
  return (
    <div className="flex flex-col items-center gap-5 py-6 text-center">
      <DoneMark />
      <p className="font-serif text-2xl text-ink">Check your inbox</p>
      <p className="max-w-md text-base leading-relaxed text-muted">
        Your free resources are on their way{email ? ` to ${email}` : ''}. Start with the guide for your archetype: it takes ten minutes and
        pairs with the three actions in your results.
      </p>
      <SeeResults onView={onViewResults} />
    </div>
  );
}
