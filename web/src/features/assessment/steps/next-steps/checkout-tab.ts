/**
 * A tab opened in the click that chose a real (Stripe) deposit, so the checkout can load in it
 * once the server has a url: a tab opened later, after the round trips, would be a popup the
 * browser blocks.
 */
let checkoutTab: Window | null = null;

/** Opens the checkout's tab now, inside the visitor's click (Stripe mode only). */
export function openCheckoutTab(): void {
  checkoutTab = window.open('about:blank', '_blank');
}

/** The tab opened for the checkout, if it is still open; it is handed over once. */
export function takeCheckoutTab(): Window | null {
  const tab = checkoutTab && !checkoutTab.closed ? checkoutTab : null;
  checkoutTab = null;
  return tab;
}

/** Closes a checkout tab that never got its url (the payment was canceled or could not start). */
export function closeUnusedCheckoutTab(): void {
  takeCheckoutTab()?.close();
}
