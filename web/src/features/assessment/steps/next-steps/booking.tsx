import type { BookingStatus } from '#machines/protocol/assessment-flow.js';
import type { Notice } from '#machines/protocol/common.js';
import type { PaymentPurpose } from '#machines/protocol/payment.js';
import { bookingLink } from '#machines/booking-link.js';
import { useBookingReference } from './booking-reference.js';
import { DoneMark, NoticeBox, TestLeadNote } from '../../ui.js';
import { formatDeposit } from './deposit.js';
import { OutLink, SeeResults } from './links.js';

/** payment_success: the deposit (or paid homework) confirmed; then book the 45-minute session. */
export function PaymentSuccessStep({
  purpose,
  booking,
  refunded,
  testing,
  notice,
  visitor,
  depositCents,
  bookingUrl,
  flowId,
  onBook,
  onViewResults,
}: {
  purpose: PaymentPurpose | null;
  /** none: not opened yet; opened: the visitor opened the booking page; booked: the provider reported a booking. */
  booking: BookingStatus;
  /** The coach refunded the deposit since. */
  refunded: boolean;
  /** A test lead: no receipt and no homework email go out. */
  testing: boolean;
  notice: Notice | null;
  visitor: { name: string | null; email: string | null };
  depositCents: number;
  bookingUrl: string | null;
  /** The flow whose booking reference the link carries: the provider's webhook names it back, so the booking lands on this flow. */
  flowId: string;
  onBook: () => void;
  onViewResults: () => void;
}) {
  const homework = purpose === 'paid_homework';
  const reference = useBookingReference(flowId, !refunded && !homework && booking !== 'booked');
  return (
    <div className="flex flex-col items-center gap-6 py-4 text-center">
      <DoneMark />
      <NoticeBox notice={notice} className="w-full text-left" />
      {refunded ? (
        <p className="max-w-lg text-lg leading-relaxed text-ink">
          Your {formatDeposit(depositCents)} deposit has been refunded.
          {!homework && booking === 'booked' ? ' Your strategy session stays in the calendar unless we cancel it with you.' : ''}
        </p>
      ) : (
        <p className="max-w-lg text-lg leading-relaxed text-ink">
          Your {formatDeposit(depositCents)} refundable deposit has been received
          {visitor.email && !testing ? `, and a receipt is on its way to ${visitor.email}` : ''}.
          {homework && !notice && !testing ? ' Your homework is in your inbox too.' : ''}
        </p>
      )}
      {testing && <TestLeadNote className="w-full text-left" />}
      {!refunded && !homework && booking === 'booked' && (
        <p className="max-w-lg text-base leading-relaxed text-muted" role="status">
          Your 45-minute strategy session is booked: the confirmation is in your inbox. We look forward to meeting you.
        </p>
      )}
      {!refunded && !homework && booking !== 'booked' && (
        <>
          <p className="max-w-lg text-base leading-relaxed text-muted">
            {booking === 'opened'
              ? 'Your booking page opened in a new tab. Choose a time that suits you; we look forward to meeting you.'
              : 'One last step: choose a time for your session. Your name and email are already filled in.'}
          </p>
          <OutLink
            href={bookingLink(visitor, bookingUrl, reference)}
            onClick={onBook}
            variant={booking === 'opened' ? 'secondary' : 'primary'}
          >
            Book your 45-minute strategy session
          </OutLink>
        </>
      )}
      <SeeResults onView={onViewResults} />
    </div>
  );
}
