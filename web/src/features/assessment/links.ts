/*
 * The two outside pages the next steps link to (spec section 7, "Other"). The coach sets the
 * scheduling page in the admin's Integrations (kept in the browser there, spec section 2), so it
 * is read from the same place when present; otherwise these defaults apply. The community page
 * is the community platform's front page, as in the site's social links (web/src/app/site.ts).
 */
import { localStore, type KeyValueStore } from '../../lib/flows/storage';

/** The default scheduling page for the 45-minute strategy session. */
export const DEFAULT_SCHEDULING_URL = 'https://calendly.com/';
/** The free community page. */
export const COMMUNITY_URL = 'https://www.skool.com/';

/** Where the admin's Integrations keep the scheduling card's booking URL, if it was saved in this browser. */
const INTEGRATIONS_KEY = 'hf:integrations';

function configuredBookingUrl(store: KeyValueStore): string | null {
  try {
    const raw = store.getItem(INTEGRATIONS_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { scheduling?: { value?: unknown; bookingUrl?: unknown; enabled?: unknown } };
    const value = parsed.scheduling?.bookingUrl ?? parsed.scheduling?.value;
    if (typeof value === 'string' && /^https?:\/\//.test(value) && parsed.scheduling?.enabled !== false) return value;
  } catch {
    // not set up here
  }
  return null;
}

/** The scheduling page, prefilled with the visitor's name and email (the parameters scheduling pages read). */
export function schedulingUrl(visitor: { name: string | null; email: string | null }, store: KeyValueStore = localStore()): string {
  const url = new URL(configuredBookingUrl(store) ?? DEFAULT_SCHEDULING_URL);
  if (visitor.name) url.searchParams.set('name', visitor.name);
  if (visitor.email) url.searchParams.set('email', visitor.email);
  return url.toString();
}
