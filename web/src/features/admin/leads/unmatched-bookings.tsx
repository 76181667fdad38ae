import { useState } from 'react';
import { Button, useToast } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { formatDateTime, useAdminFailure, useAdminResource } from '../api.js';
import { Badge } from '../lead-parts.js';
import { bookingAssignedSchema, unmatchedBookingsSchema, type UnmatchedBooking } from '#machines/protocol/admin/bookings.js';
import { Panel } from '../states.js';

const PROVIDERS = { calendly: 'Calendly', calcom: 'Cal.com' } as const;

/**
 * Bookings the scheduler reported that no booking link's reference matched (decision 0046): the
 * ones with this lead's address or name first. The coach assigns one to the lead in one click,
 * which books the lead's deposit through their journey. Shown only while there are some.
 */
export function UnmatchedBookingsPanel({
  leadId,
  canAssign,
  onAssigned,
}: {
  leadId: string;
  /** The lead has a paid deposit not booked yet: what an assignment books. */
  canAssign: boolean;
  onAssigned: () => void;
}) {
  const { data, reload } = useAdminResource(`/api/admin/leads/${encodeURIComponent(leadId)}/unmatched-bookings`, unmatchedBookingsSchema);
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [busy, setBusy] = useState<string | null>(null);

  const assign = async (booking: UnmatchedBooking) => {
    setBusy(booking.id);
    try {
      await api(`/api/admin/bookings/${booking.id}/assign`, {
        method: 'POST',
        body: { leadId },
        csrfToken: session.csrfToken,
        schema: bookingAssignedSchema,
      });
      toast({ title: 'Booking assigned', description: 'The session is booked for this lead.' });
      onAssigned();
    } catch (error) {
      fail(error, 'Failed to assign the booking. Please try again.');
    } finally {
      setBusy(null);
      reload();
    }
  };

  if (!data || data.items.length === 0) return null;
  return (
    <Panel
      title="Unmatched bookings"
      id="lead-unmatched-bookings"
      footer={
        canAssign
          ? 'Booked at the scheduler without this site’s booking link. Assign one to book this lead’s session.'
          : 'Booked at the scheduler without this site’s booking link. Only a lead with a paid deposit not yet booked can take one.'
      }
    >
      <ul className="flex flex-col gap-3" aria-label="Unmatched bookings">
        {data.items.map((booking) => (
          <li
            key={booking.id}
            data-booking={booking.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line p-3"
          >
            <div className="min-w-0">
              <p className="font-semibold break-words text-ink">
                {booking.name ?? 'No name given'} {booking.resembles && <Badge>matches this lead</Badge>}
              </p>
              <p className="text-sm break-all text-muted">{booking.email ?? 'No email given'}</p>
              <p className="text-sm text-muted">
                {booking.startsAt ? `Session ${formatDateTime(booking.startsAt)}` : 'No session time given'} via{' '}
                {PROVIDERS[booking.provider]} · received {formatDateTime(booking.receivedAt)}
              </p>
            </div>
            {canAssign && (
              <Button
                size="sm"
                variant="secondary"
                loading={busy === booking.id}
                disabled={busy !== null}
                onClick={() => void assign(booking)}
              >
                Assign to this lead
              </Button>
            )}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
