import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { DEFAULT_SITE_SETTINGS, siteSettingsFrom, type SiteSettings } from '../../../machines/site-settings';

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

/** Settings given from outside (a page rendered on the server, a test) instead of fetched. */
const GivenSettings = createContext<SiteSettings | null>(null);

export function SiteSettingsProvider({ settings, children }: { settings: SiteSettings; children: ReactNode }) {
  return <GivenSettings.Provider value={settings}>{children}</GivenSettings.Provider>;
}

/** The site settings now: the one way pages read them. */
export function useSiteSettings(): SiteSettings {
  const given = useContext(GivenSettings);
  const loaded = useSyncExternalStore(
    subscribe,
    () => current,
    () => DEFAULT_SITE_SETTINGS,
  );
  return given ?? loaded;
}
