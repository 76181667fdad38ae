/*
 * The two outside pages the next steps link to (spec section 7, "Other"). The coach sets the
 * scheduling page in the admin's Integrations, stored on the server and handed out by
 * GET /api/config; until then the default applies. The community page is the community platform's
 * front page, as in the site's social links (web/src/app/site.ts).
 */

/** The default scheduling page for the 45-minute strategy session. */
export const DEFAULT_SCHEDULING_URL = 'https://calendly.com/';
/** The free community page. */
export const COMMUNITY_URL = 'https://www.skool.com/';

/** The scheduling page, prefilled with the visitor's name and email (the parameters scheduling pages read). */
export function schedulingUrl(visitor: { name: string | null; email: string | null }, bookingUrl: string | null): string {
  const url = new URL(bookingUrl ?? DEFAULT_SCHEDULING_URL);
  if (visitor.name) url.searchParams.set('name', visitor.name);
  if (visitor.email) url.searchParams.set('email', visitor.email);
  return url.toString();
}
