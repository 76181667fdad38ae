/*
 * A rendered public page reads and navigates with no script at all; its code (React, the router,
 * the page) is fetched and hydrated only when the visitor shows they are about to use it: points
 * at, touches or focuses something interactive, or presses a key. A click or a submit that comes
 * before the page is live is held and replayed once it is, and text typed meanwhile is handed to
 * the page's own state, so nothing the visitor did is lost. Plain links are left alone: they load
 * the next rendered page.
 */

/** What shows intent when pointed at: anything a visitor can use. */
const INTERACTIVE = 'a[href], button, input, textarea, select, label, summary, [tabindex]';
/** What does nothing until the page is live: buttons, and links that also open a dialog. */
const NEEDS_SCRIPT = 'button, a[aria-haspopup]';
/** What opens the assessment: its code is fetched at the same time as the page's. */
const OPENS_DIALOG = '[aria-haspopup="dialog"]';

const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

const closest = (target: EventTarget | null, selector: string) =>
  target instanceof Element ? target.closest<HTMLElement>(selector) : null;

/**
 * Hands text typed into a field before the page was live to the page's state: React keeps a
 * field's last known value beside it and fires onChange only for an input event that differs from
 * it, so the field is set back through React's setter, then to the typed text through the
 * element's own (its prototype's), and told.
 */
function handOverTypedText(root: HTMLElement): void {
  // read them all first: the page redraws the others from its state as each is handed over
  const typed = [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')]
    .filter((field) => field.type !== 'checkbox' && field.type !== 'radio' && field.value !== field.defaultValue)
    .map((field) => [field, field.value] as const);
  for (const [field, text] of typed) {
    field.value = field.defaultValue;
    Reflect.set(Object.getPrototypeOf(field) as object, 'value', text, field);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/**
 * Waits for the visitor's intent in `root` (a rendered page), then `start`s the page (which
 * resolves once it is live) and replays what was held; `prefetch` runs too when the intent is
 * towards the assessment.
 */
export function hydrateOnIntent(root: HTMLElement, start: () => Promise<void>, prefetch: () => void): void {
  let starting: Promise<void> | null = null;
  // the clicked element, or, once the page is live and has drawn it anew (a stand-in replaced by
  // the real control), the one in its place
  let heldClick: { element: HTMLElement; index: number } | null = null;
  const heldTarget = () =>
    heldClick && (heldClick.element.isConnected ? heldClick.element : root.querySelectorAll<HTMLElement>(NEEDS_SCRIPT)[heldClick.index]);
  let heldSubmit: HTMLFormElement | null = null;

  const stopListening = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent, true);
    document.removeEventListener('click', holdClick, true);
    document.removeEventListener('submit', holdSubmit, true);
  };
  const begin = () => {
    starting ??= start().then(
      () => {
        stopListening();
        handOverTypedText(root);
        // after React has applied the handed-over text (it does so in a microtask), so a held
        // Send sees it
        setTimeout(() => {
          if (heldSubmit?.isConnected) heldSubmit.requestSubmit();
          else heldTarget()?.click();
        });
      },
      // the code could not be fetched (offline): the page still reads and its links work; the
      // next intent tries again
      () => {
        starting = null;
      },
    );
  };
  const onIntent = (event: Event) => {
    if (event.type === 'pointerover' && !closest(event.target, INTERACTIVE)) return;
    if (closest(event.target, OPENS_DIALOG)) prefetch();
    begin();
  };
  const holdClick = (event: MouseEvent) => {
    const target = closest(event.target, NEEDS_SCRIPT);
    if (!target || !root.contains(target)) return;
    // a link opened in a new tab or window just goes there
    if (target instanceof HTMLAnchorElement && (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)) {
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    heldClick = { element: target, index: [...root.querySelectorAll(NEEDS_SCRIPT)].indexOf(target) };
    begin();
  };
  const holdSubmit = (event: SubmitEvent) => {
    if (!(event.target instanceof HTMLFormElement) || !root.contains(event.target)) return;
    event.preventDefault();
    heldSubmit = event.target;
    begin();
  };

  for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, { capture: true, passive: true });
  document.addEventListener('click', holdClick, true);
  document.addEventListener('submit', holdSubmit, true);
}
