import { z } from 'zod';
import { BOOKING_REFERENCE_PARAMS, BOOKING_REFERENCE_PATTERN } from '#machines/booking-link.js';
import type { SchedulingProvider } from './signatures.js';

/**
 * A provider's webhook body reduced to what the flow needs. `eventId` is unique per delivery of a
 * fact (the provider retries with the same body), so a receipt keyed on it applies each once.
 * `bookingKey` is the provider's own id of the booking (Calendly's invitee URI, Cal.com's uid): a
 * cancellation names the booking it cancels by it, and a reschedule names the one it replaces
 * (`previousKey`: Calendly's old_invitee, Cal.com's rescheduleUid).
 */
export type BookingEvent =
  | {
      kind: 'booked' | 'canceled';
      eventId: string;
      type: string;
      bookingKey: string;
      previousKey: string | null;
      /** The booking reference the link carried (core/scheduling/booking-references.ts), when the provider passed it back. */
      reference: string | null;
      name: string | null;
      email: string | null;
      startsAt: string | null;
      /** Who cancelled: the coach (host/organizer) or the lead; null when the provider did not say. */
      canceledBy: 'coach' | 'lead' | null;
    }
  /** Calendly's cancellation of a booking that was rescheduled: its replacement arrives as a booking of its own. */
  | { kind: 'superseded'; eventId: string; type: string; bookingKey: string }
  | { kind: 'ignored'; eventId: string; type: string; reason: string };

/** Thrown for a body that is not the provider's event shape; answered 400 naming the field. */
export class BookingEventError extends Error {}

const text = z.string().trim().min(1).max(500);
const isoTime = z.iso.datetime({ offset: true });

/** Only the fields read; the rest of the provider's body is ignored, whatever it holds. */
const calendlyBody = z.object({
  event: text,
  created_at: text.optional(),
  payload: z.object({
    uri: text,
    email: text.nullish(),
    name: z.string().max(500).nullish(),
    old_invitee: z.string().max(500).nullish(),
    rescheduled: z.boolean().nullish(),
    tracking: z.object({ utm_content: z.string().max(500).nullish() }).nullish(),
    scheduled_event: z.object({ start_time: isoTime.nullish() }).nullish(),
    cancellation: z.object({ canceler_type: z.string().nullish() }).nullish(),
  }),
});

const calcomBody = z.object({
  triggerEvent: text,
  payload: z
    .object({
      uid: text.optional(),
      rescheduleUid: z.string().max(500).nullish(),
      startTime: isoTime.nullish(),
      attendees: z.array(z.object({ email: z.string().max(320).nullish(), name: z.string().max(500).nullish() })).nullish(),
      organizer: z.object({ email: z.string().max(320).nullish() }).nullish(),
      metadata: z.record(z.string(), z.unknown()).nullish(),
      cancelledBy: z.string().max(320).nullish(),
    })
    .optional(),
});

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new BookingEventError(`${issue.path.join('.') || 'body'}: ${issue.message}`);
}

/** The reference as this site writes it (BOOKING_REFERENCE_PATTERN); anything else, a flow id included, is not one. */
function reference(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const candidate = value.trim().toLowerCase();
  return BOOKING_REFERENCE_PATTERN.test(candidate) ? candidate : null;
}

/** A present, non-blank text, or null. */
function given(value: string | null | undefined): string | null {
  return value?.trim() ? value.trim() : null;
}

function fromCalendly(body: unknown): BookingEvent {
  const { event, payload } = parsed(calendlyBody, body);
  const eventId = `${event}:${payload.uri}`.slice(0, 255);
  const common = {
    eventId,
    type: event,
    bookingKey: payload.uri,
    previousKey: given(payload.old_invitee),
    reference: reference(payload.tracking?.[BOOKING_REFERENCE_PARAMS.calendly]),
    name: given(payload.name),
    email: payload.email ?? null,
    startsAt: payload.scheduled_event?.start_time ?? null,
  };
  if (event === 'invitee.created') return { kind: 'booked', ...common, canceledBy: null };
  if (event === 'invitee.canceled') {
    // a reschedule cancels the old invitee and creates a new one (naming the old), in either order: the new one books
    if (payload.rescheduled) return { kind: 'superseded', eventId, type: event, bookingKey: payload.uri };
    const canceler = payload.cancellation?.canceler_type;
    return { kind: 'canceled', ...common, canceledBy: canceler === 'host' ? 'coach' : canceler === 'invitee' ? 'lead' : null };
  }
  return { kind: 'ignored', eventId, type: event, reason: 'not a booking event' };
}

function fromCalcom(body: unknown): BookingEvent {
  const { triggerEvent, payload } = parsed(calcomBody, body);
  // Cal.com's test delivery (PING) carries no booking
  if (!payload?.uid) return { kind: 'ignored', eventId: `${triggerEvent}:no-uid`, type: triggerEvent, reason: 'no booking in the event' };
  const eventId = `${triggerEvent}:${payload.uid}`.slice(0, 255);
  const attendee = payload.attendees?.find((one) => one.email);
  const common = {
    eventId,
    type: triggerEvent,
    bookingKey: payload.uid,
    // a reschedule is a new booking (a new uid) naming the one it replaces
    previousKey: triggerEvent === 'BOOKING_RESCHEDULED' ? given(payload.rescheduleUid) : null,
    reference: reference(payload.metadata?.ref),
    name: given(attendee?.name),
    email: attendee?.email ?? null,
    startsAt: payload.startTime ?? null,
  };
  if (triggerEvent === 'BOOKING_CREATED' || triggerEvent === 'BOOKING_RESCHEDULED') return { kind: 'booked', ...common, canceledBy: null };
  if (triggerEvent === 'BOOKING_CANCELLED') {
    const by = payload.cancelledBy?.toLowerCase();
    const canceledBy = !by
      ? null
      : by === payload.organizer?.email?.toLowerCase()
        ? 'coach'
        : by === common.email?.toLowerCase()
          ? 'lead'
          : null;
    return { kind: 'canceled', ...common, canceledBy };
  }
  return { kind: 'ignored', eventId, type: triggerEvent, reason: 'not a booking event' };
}

/** The provider's JSON body as a booking event; BookingEventError for a body of the wrong shape. */
export function bookingEvent(provider: SchedulingProvider, body: unknown): BookingEvent {
  return provider === 'calendly' ? fromCalendly(body) : fromCalcom(body);
}
