import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while a page is rendered on the server and while the browser hydrates it, true from then
 * on: what exists only in a running browser (document.body, the address's query, a menu that
 * cannot be drawn on the server) waits for it, so hydration matches the HTML.
 */
export function useRunningInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
