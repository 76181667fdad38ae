import { useEffect, useRef, useState } from 'react';
import { Button } from '#web/components/ui/index.js';
import type { PaymentPurpose } from '#machines/protocol/payment.js';
import { recordCheckoutStart } from '#web/lib/browser-storage.js';
import { Spinner, Waiting } from '../../ui.js';
import { takeCheckoutTab } from './checkout-tab.js';
import { OutLink } from './links.js';

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
