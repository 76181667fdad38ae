import { DEFAULT_SCHEDULING_URL } from './site-settings.js';

/*
 * The booking page a deposit's next step (and the receipt and paid-not-booked reminder) links to:
 * the page the coach set in Integrations, prefilled with the visitor's name and email, and carrying
 * the flow's booking reference (random, issued by the server: core/scheduling/booking-references.ts,
 * decision 0046) so the provider's webhook names the flow it books. Calendly passes utm_content back in
 * the invitee's tracking; Cal.com passes metadata[ref] back in the booking's metadata. Both are
 * set: a custom domain does not say which provider serves it, and each ignores the other's.
 */

/** The query parameters the booking webhook reads the reference from (core/scheduling/booking-events.ts). */
export const BOOKING_REFERENCE_PARAMS = { calendly: 'utm_content', calcom: 'metadata[ref]' } as const;

/** A booking reference: 128 random bits as lowercase hex (UTM values may be lowercased on the way). */
export const BOOKING_REFERENCE_PATTERN = /^[0-9a-f]{32}$/;

/** A query parameter as a form encodes it (spaces as +), the way scheduling pages read their prefills. */
function queryPart(name: string, value: string): string {
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
  return `${encode(name)}=${encode(value)}`;
}

/** Written without URL, which the machines' runtime-neutral code does not assume: the page's own query and fragment are kept. */
export function bookingLink(
  visitor: { name: string | null; email: string | null },
  bookingUrl: string | null,
  reference: string | null,
): string {
  const page = bookingUrl ?? DEFAULT_SCHEDULING_URL;
  const hashAt = page.indexOf('#');
  const [base, hash] = hashAt === -1 ? [page, ''] : [page.slice(0, hashAt), page.slice(hashAt)];
  const parts: string[] = [];
  if (visitor.name) parts.push(queryPart('name', visitor.name));
  if (visitor.email) parts.push(queryPart('email', visitor.email));
  if (reference) {
    parts.push(queryPart(BOOKING_REFERENCE_PARAMS.calendly, reference), queryPart(BOOKING_REFERENCE_PARAMS.calcom, reference));
  }
  if (parts.length === 0) return page;
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${parts.join('&')}${hash}`;
}
