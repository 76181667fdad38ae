import { z } from 'zod';
import { timestamp } from './common.js';

/*
 * Unmatched bookings (decision 0046): a booking the scheduling provider reported that no flow's
 * reference (or one proven payer's address) matched, kept with what the event said for the coach
 * to assign to a lead from the lead page.
 */

export const unmatchedBookingSchema = z.object({
  id: z.uuid(),
  provider: z.enum(['calendly', 'calcom']),
  /** The provider's own id of the booking (Calendly's invitee URI, Cal.com's uid). */
  bookingKey: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  startsAt: timestamp.nullable(),
  receivedAt: timestamp,
  /** Its address or name is the lead's (listed first). */
  resembles: z.boolean(),
});
export type UnmatchedBooking = z.output<typeof unmatchedBookingSchema>;

/** GET /api/admin/leads/:id/unmatched-bookings */
export const unmatchedBookingsSchema = z.object({ items: z.array(unmatchedBookingSchema) });

/** POST /api/admin/bookings/:id/assign: the lead the booking is theirs. */
export const assignBookingBodySchema = z.object({ leadId: z.uuid() });

export const bookingAssignedSchema = z.object({ assigned: z.literal(true), flowId: z.uuid() });
