/*
 * The scheduling page the deposit's next step links to. The coach sets it in the admin's
 * Integrations, stored on the server and handed out by GET /api/config; until then the default
 * applies. (The community page is a site setting: see web/src/lib/site-settings.tsx.)
 */
import { DEFAULT_SCHEDULING_URL } from '#machines/site-settings.js';

/** The scheduling page, prefilled with the visitor's name and email (the parameters scheduling pages read). */
export function schedulingUrl(visitor: { name: string | null; email: string | null }, bookingUrl: string | null): string {
  const url = new URL(bookingUrl ?? DEFAULT_SCHEDULING_URL);
  if (visitor.name) url.searchParams.set('name', visitor.name);
  if (visitor.email) url.searchParams.set('email', visitor.email);
  return url.toString();
}
