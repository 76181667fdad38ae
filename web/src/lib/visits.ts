import { randomUuid } from '#machines/random-id.js';
import { safeSet, sessionStore } from './flows/storage.js';

/** This tab session's random visit id, in sessionStorage: a new tab (or a closed and reopened one) is a new visit. */
const VISIT_KEY = 'hf:visitId';

/**
 * Counts this tab session as one visit to the public site (POST /api/visits, for the admin
 * overview's funnel), the first time a page of it is shown. Sends only the random id and the
 * path (never the query string, which may hold a token); the server stores nothing about who
 * the visitor is.
 */
export function recordVisit(): void {
  const store = sessionStore();
  if (store.getItem(VISIT_KEY)) return;
  const visitorId = randomUuid();
  safeSet(store, VISIT_KEY, visitorId);
  const body = JSON.stringify({ visitorId, path: location.pathname.slice(0, 300) });
  // a beacon does not compete with the page's own requests and still goes if the visitor leaves at once
  if (navigator.sendBeacon?.('/api/visits', new Blob([body], { type: 'application/json' }))) return;
  fetch('/api/visits', { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true }).catch(() => {});
}
