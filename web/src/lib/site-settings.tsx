import { useSyncExternalStore } from 'react';
import { DEFAULT_SITE_SETTINGS, siteSettingsFrom, type SiteSettings } from '#machines/site-settings.js';

/*
 * The coach's site settings (community page, social links, contact details) for every public page:
 * read from GET /api/config once per page load, so a change in the admin shows on the next visit
 * without a rebuild. Until the answer arrives, and if it never does, the defaults apply.
 */

let current: SiteSettings = DEFAULT_SITE_SETTINGS;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Replaces the settings this tab shows (on load, and after the admin saves new ones). */
export function publishSiteSettings(settings: SiteSettings): void {
  current = settings;
  for (const listener of listeners) listener();
}

function load(): void {
  loading ??= fetch('/api/config', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`GET /api/config answered ${response.status}`))))
    .then((answer: unknown) => publishSiteSettings(siteSettingsFrom(answer)))
    .catch(() => {
      // the defaults stay; the next page that asks tries again
      loading = null;
    });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

/** The site settings now: the one way pages read them. */
export function useSiteSettings(): SiteSettings {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => DEFAULT_SITE_SETTINGS,
  );
}
