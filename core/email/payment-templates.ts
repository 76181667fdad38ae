import type { SiteSettings } from '#machines/site-settings.js';
import { content, greeting, RESPONSE_PROMISE, signOff, type EmailContent } from './compose.js';
import type { Block } from './layout.js';

/** A payment as a receipt or refund confirmation shows it. */
export interface PaymentDetails {
  name: string | null;
  amountCents: number;
  currency: string;
  /** Stripe's payment intent id, or the test payment's: what the lead quotes to ask about it. */
  reference: string;
  at: Date;
  /** A test payment (no Stripe key on the server): no money moved. */
  testMode: boolean;
}

function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

function paymentRows(payment: PaymentDetails, dateLabel: string): Block {
  return {
    kind: 'fields',
    rows: [
      ['Amount', `${money(payment.amountCents, payment.currency)} ${payment.currency.toUpperCase()}`],
      [dateLabel, payment.at.toUTCString()],
      ['Reference', payment.reference],
      ...(payment.testMode ? ([['Payment', 'Test payment: no money moved']] as Array<[string, string]>) : []),
    ],
  };
}

/** What each purpose of payment bought, as the receipt names it. */
const PURCHASES = {
  deposit: 'Refundable deposit for your 45-minute strategy session',
  paid_homework: 'Four-week leadership homework programme (refundable deposit)',
} as const;

/** The refund terms every payment is sold under (the payment screen's "100% refundable"). */
const REFUND_TERMS = 'The payment is 100% refundable: if you decide not to go ahead, reply to this email and it is refunded in full.';

/** The receipt of paid homework: what was bought, the amount, date and reference, and the refundable terms. */
export function homeworkReceipt(payment: PaymentDetails, site: SiteSettings): EmailContent {
  return content(
    `Receipt: your ${money(payment.amountCents, payment.currency)} payment for your leadership homework`,
    [
      greeting(payment.name),
      {
        kind: 'p',
        text: 'Thank you. This is your receipt for the four-week leadership homework programme. The programme itself comes in a separate email.',
      },
      { kind: 'fields', rows: [['Purchase', PURCHASES.paid_homework]] },
      paymentRows(payment, 'Paid on'),
      { kind: 'p', text: REFUND_TERMS },
      signOff,
    ],
    site,
  );
}

/** The receipt the deposit screen promises: the amount, the refundable terms and how to book the session. */
export function depositReceipt(payment: PaymentDetails, bookingUrl: string | null, site: SiteSettings): EmailContent {
  return content(
    `Receipt: your ${money(payment.amountCents, payment.currency)} refundable deposit`,
    [
      greeting(payment.name),
      { kind: 'p', text: 'Thank you. This is your receipt for the deposit that holds your 45-minute strategy session.' },
      { kind: 'fields', rows: [['Purchase', PURCHASES.deposit]] },
      paymentRows(payment, 'Paid on'),
      { kind: 'p', text: 'The deposit is 100% refundable: if you decide not to go ahead, reply to this email and it is refunded in full.' },
      bookingUrl
        ? { kind: 'link', label: 'Book your 45-minute strategy session', href: bookingUrl }
        : { kind: 'p', text: `I will write to you to find a time for your session. ${RESPONSE_PROMISE}` },
      signOff,
    ],
    site,
  );
}

/** The confirmation of a refunded payment. */
export function refundConfirmation(payment: PaymentDetails, site: SiteSettings): EmailContent {
  const amount = money(payment.amountCents, payment.currency);
  return content(
    `Your ${amount} payment has been refunded`,
    [
      greeting(payment.name),
      {
        kind: 'p',
        text: payment.testMode
          ? `Your test payment of ${amount} has been refunded. It was a test payment, so no money moved.`
          : `Your payment of ${amount} has been refunded in full. Depending on your bank, it can take 5 to 10 business days to appear on your statement.`,
      },
      paymentRows(payment, 'Refunded on'),
      { kind: 'p', text: 'If you have any question about it, reply to this email.' },
      signOff,
    ],
    site,
  );
}
