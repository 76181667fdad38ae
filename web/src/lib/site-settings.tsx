import { createContext, useContext, useSyncExternalStore } from 'react';
import { DEFAULT_SITE_SETTINGS, siteSettingsFrom, type SiteSettings } from '#machines/site-settings.js';

/*
 * The coach's site settings (community page, social links, contact details) for every public page.
 * A rendered public page carries the settings it was rendered with (SITE_SETTINGS_ELEMENT, written
 * by the server), so the browser hydrates exactly what the server drew and fetches nothing; a page
 * served as the empty shell reads GET /api/config once per page load. Until that answer arrives,
 * and if it never does, the defaults apply.
 */

/** The id of the JSON <script> a rendered page carries its settings in. */
export const SITE_SETTINGS_ELEMENT = 'hf-site-settings';

function embeddedSettings(): SiteSettings | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(SITE_SETTINGS_ELEMENT)?.textContent;
  if (!text) return null;
  try {
    return siteSettingsFrom(JSON.parse(text));
  } catch {
    return null;
  }
}

const embedded = embeddedSettings();
let current: SiteSettings = embedded ?? DEFAULT_SITE_SETTINGS;
let loading: Promise<void> | null = embedded ? Promise.resolve() : null;
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

/** The settings a server render draws with (web/src/entry-server.tsx); none in the browser. */
export const RenderedSiteSettings = createContext<SiteSettings | null>(null);

/** The site settings now: the one way pages read them. */
export function useSiteSettings(): SiteSettings {
  const rendered = useContext(RenderedSiteSettings);
  return useSyncExternalStore(
    subscribe,
    () => current,
    // while hydrating: what the page was rendered with, which `current` starts as
    () => rendered ?? current,
  );
}
