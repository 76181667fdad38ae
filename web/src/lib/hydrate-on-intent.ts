/*
 * A rendered public page reads and navigates with no script at all; its code (React, the router,
 * the page) is fetched and hydrated only when the visitor shows they are about to use it: points
 * at, touches or focuses something interactive, or presses a key. A click or a submit that comes
 * before the page is live is held and replayed once it is, and text typed meanwhile is kept from
 * React and handed to the page's own state once it is live, so nothing the visitor did is lost.
 * Plain links are left alone: they load the next rendered page.
 */

/** What shows intent when pointed at: anything a visitor can use. */
const INTERACTIVE = 'a[href], button, input, textarea, select, label, summary, [tabindex]';
/** What does nothing until the page is live: buttons, and links that also open a dialog. */
const NEEDS_SCRIPT = 'button, a[aria-haspopup]';
/** What opens the assessment: its code is fetched at the same time as the page's. */
const OPENS_DIALOG = '[aria-haspopup="dialog"]';

const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;
/** What ends a press. */
const PRESS_ENDS = ['pointerup', 'pointercancel'] as const;
/** How long a page come to life waits for a press under way to end before it takes over. */
const PRESS_PATIENCE_MS = 2000;
/** What tells React a field's text changed. */
const TYPING_EVENTS = ['input', 'change'] as const;

const closest = (target: EventTarget | null, selector: string) =>
  target instanceof Element ? target.closest<HTMLElement>(selector) : null;

type TextField = HTMLInputElement | HTMLTextAreaElement;

const isTextField = (target: EventTarget | null): target is TextField =>
  (target instanceof HTMLInputElement && target.type !== 'checkbox' && target.type !== 'radio') || target instanceof HTMLTextAreaElement;

/**
 * Hands text typed into a field before the page was live to the page's state: what each input
 * event left in `typed`, and what else differs from the rendered value (a form the browser
 * restored). React keeps a field's last known value beside it and fires onChange only for an
 * input event that differs from it, so the field is set back through React's setter, then to the
 * typed text through the element's own (its prototype's), and told.
 */
function handOverTypedText(root: HTMLElement, typed: Map<TextField, string>): void {
  // read them all first: the page redraws the others from its state as each is handed over
  const text = new Map<TextField, string>();
  for (const field of root.querySelectorAll<TextField>('input, textarea')) {
    if (isTextField(field) && field.value !== field.defaultValue) text.set(field, field.value);
  }
  for (const [field, value] of typed) if (field.isConnected) text.set(field, value);
  for (const [field, value] of text) {
    field.value = field.defaultValue;
    Reflect.set(Object.getPrototypeOf(field) as object, 'value', value, field);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/**
 * Waits for the visitor's intent in `root` (a rendered page), or not at all when `now` (a page
 * that needs its script at once), then `start`s the page (which resolves once it is live) and
 * replays what was held; `prefetch` runs too when the intent is towards the assessment. Returns
 * what starts the page, for a caller that sees intent of its own (the early capture screen).
 */
export function hydrateOnIntent(root: HTMLElement, start: () => Promise<void>, prefetch: () => void, { now = false } = {}): () => void {
  let starting: Promise<void> | null = null;
  // a control, and its place among the others: once the page is live and has drawn it anew (a
  // stand-in replaced by the real control), the one in that place is meant
  type Control = { element: HTMLElement; index: number };
  const control = (element: HTMLElement): Control => ({ element, index: [...root.querySelectorAll(NEEDS_SCRIPT)].indexOf(element) });
  const live = ({ element, index }: Control) => (element.isConnected ? element : root.querySelectorAll<HTMLElement>(NEEDS_SCRIPT)[index]);
  let heldClick: Control | null = null;
  let heldSubmit: HTMLFormElement | null = null;
  // the control a pointer is pressing, until it lifts: a page that goes live in between may
  // replace it, and the browser then sends the click to no control at all, so that click is held
  let pressed: Control | null = null;
  let pressing = false;
  const typed = new Map<TextField, string>();

  const stopListening = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent, true);
    document.removeEventListener('click', holdClick, true);
    document.removeEventListener('submit', holdSubmit, true);
    for (const type of TYPING_EVENTS) document.removeEventListener(type, holdTyping, true);
    for (const type of PRESS_ENDS) document.removeEventListener(type, onPressEnd, true);
  };
  const goLive = () => {
    stopListening();
    handOverTypedText(root, typed);
    // after React has applied the handed-over text (it does so in a microtask), so a held Send
    // sees it
    setTimeout(() => {
      if (heldSubmit?.isConnected) heldSubmit.requestSubmit();
      else if (heldClick) live(heldClick)?.click();
    });
  };
  // a press under way ends first: its click, dispatched with the pointer's release, is held too
  let whenPressEnds: (() => void) | null = null;
  const begin = () => {
    starting ??= start().then(
      () => {
        if (!pressing) return goLive();
        // a press that never ends (a pointer lost without its release) holds the page back a moment only
        const fallback = setTimeout(() => whenPressEnds?.(), PRESS_PATIENCE_MS);
        whenPressEnds = () => {
          clearTimeout(fallback);
          whenPressEnds = null;
          setTimeout(goLive);
        };
      },
      // the code could not be fetched (offline): the page still reads and its links work; the
      // next intent tries again, and a held form the server takes as it is (method="post" with an
      // action, such as the contact form) is sent the way a browser without JavaScript sends it
      () => {
        starting = null;
        const form = heldSubmit;
        heldSubmit = null;
        if (form?.isConnected && form.method === 'post' && form.getAttribute('action')) form.submit();
      },
    );
  };
  const onIntent = (event: Event) => {
    if (event.type === 'pointerdown') {
      pressing = true;
      const target = closest(event.target, NEEDS_SCRIPT);
      pressed = target && root.contains(target) ? control(target) : null;
    }
    if (event.type === 'pointerover' && !closest(event.target, INTERACTIVE)) return;
    if (closest(event.target, OPENS_DIALOG)) prefetch();
    begin();
  };
  const onPressEnd = (event: Event) => {
    pressing = false;
    // a control replaced while pressed gets no click from Chromium (the pressed node is gone) and
    // one on what held both from other browsers (held below): released over its replacement, it
    // was clicked
    if (event.type === 'pointerup' && pressed && !pressed.element.isConnected && event.target instanceof Node) {
      if (live(pressed)?.contains(event.target)) heldClick = pressed;
    }
    whenPressEnds?.();
  };
  const holdClick = (event: MouseEvent) => {
    const target = closest(event.target, NEEDS_SCRIPT);
    // the pressed control was replaced while pressed: the click went to what held both
    const clicked = target && root.contains(target) ? control(target) : pressed && !pressed.element.isConnected ? pressed : null;
    if (!clicked) return;
    // a link opened in a new tab or window just goes there
    if (target instanceof HTMLAnchorElement && (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)) {
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    heldClick = clicked;
    begin();
  };
  const holdSubmit = (event: SubmitEvent) => {
    if (!(event.target instanceof HTMLFormElement) || !root.contains(event.target)) return;
    event.preventDefault();
    heldSubmit = event.target;
    begin();
  };

  const holdTyping = (event: Event) => {
    if (!isTextField(event.target) || !root.contains(event.target)) return;
    typed.set(event.target, event.target.value);
    // React hydrating, or hydrated but not yet handed the earlier text, would take this edit and
    // redraw the form from its state, blanking the fields typed before it
    event.stopImmediatePropagation();
  };

  for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, { capture: true, passive: true });
  for (const type of TYPING_EVENTS) document.addEventListener(type, holdTyping, true);
  document.addEventListener('click', holdClick, true);
  document.addEventListener('submit', holdSubmit, true);
  for (const type of PRESS_ENDS) document.addEventListener(type, onPressEnd, true);
  if (now) begin();
  return begin;
}
