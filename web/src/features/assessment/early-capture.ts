import { post } from '../../lib/api.js';
import { FlowIdStore, sessionStore } from '../../lib/flows/storage.js';
import { assessmentStartedBefore, flowSlot, openingParameters, rememberEmail, STORAGE_KEYS, type OpeningParameters } from './opening.js';

/*
 * The assessment's first screen (the capture: name and email) without its code. Every rendered
 * page carries the screen as a template (web/src/features/assessment/early-capture-markup.tsx,
 * drawn by the server beside the page); the page's first script puts it in the page when a visitor opens the
 * assessment, so they can type at once while the site's and the assessment's code load. When they
 * submit it, the details are handed to the assessment modal, which starts the flow on the server
 * and sends the capture through the machine as it always did, then takes the screen's place.
 */

/** The template the screen is drawn from; the screen is in the document only while it is open. */
export const EARLY_CAPTURE_ELEMENT = 'hf-early-capture';
let screen: HTMLElement | null = null;
/** What marks a call to action that opens the assessment (not the Mirror): AssessmentButton. */
const OPENS_ASSESSMENT = 'button[data-assessment-mode="assessment"]';

export interface EarlyCapture {
  /** What was typed, or null when the server opened the flow elsewhere than the capture. */
  details: { name: string; email: string } | null;
  /** What opened it, where focus returns when the assessment closes. */
  opener: HTMLElement | null;
  /** The flow as the server answered the capture (or its start, when the capture was not taken); rejects when it could not start. */
  flow: Promise<unknown>;
  /** The server took the capture: the modal must not send it again. */
  sent: boolean;
}

/** A flow answer's state and version, enough to post the capture to it. */
const flowAt = (flow: unknown) => flow as { flowId: string; state: string; version: number };

/** The modal's start of an assessment for a visitor this tab does not know (modal.tsx builds the same). */
const startBody = (params: OpeningParameters) => ({
  machine: 'assessmentFlow',
  mode: 'assessment',
  testing: params.testing,
  ...(params.ref ? { ref: params.ref } : {}),
  knownSession: null,
});

let submitted: EarlyCapture | null = null;
let taker: ((capture: EarlyCapture) => void) | null = null;

/** The modal's launcher takes a submitted early capture (now, if one is waiting); returns the unsubscribe. */
export function onEarlyCapture(take: (capture: EarlyCapture) => void): () => void {
  taker = take;
  if (submitted) take(submitted);
  return () => {
    if (taker === take) taker = null;
  };
}

/** The capture submitted on the early screen, for the modal's capture step to send. */
export const submittedEarlyCapture = (): EarlyCapture | null => submitted;

/** The modal is on screen: it takes the early screen's place. */
export function hideEarlyCapture(): void {
  screen?.remove();
}

/** The modal has sent the capture, or was closed: the early screen can open again (for a new assessment). */
export function forgetEarlyCapture(): void {
  submitted = null;
}

/**
 * This tab has an assessment to resume or a lead session, or this browser started one before (the
 * server may open the next at its results): the modal opens it, not the early screen.
 */
function modalOpensIt(params: OpeningParameters): boolean {
  return (
    params.token !== null ||
    assessmentStartedBefore() ||
    new FlowIdStore().get(flowSlot('assessment')) !== null ||
    sessionStore().getItem(STORAGE_KEYS.leadSession) !== null
  );
}

/**
 * Shows the early capture screen when a call to action of `root` opens the assessment, and hands
 * what is submitted to the modal. `begin` starts the site's code (hydrateOnIntent's), `prefetch`
 * fetches the assessment's. Listens before the page holds clicks, so it must be armed first.
 */
export function armEarlyCapture(root: HTMLElement, begin: () => void, prefetch: () => void): void {
  const template = document.getElementById(EARLY_CAPTURE_ELEMENT);
  const dialog = template instanceof HTMLTemplateElement ? template.content.querySelector<HTMLElement>('[data-early-capture]') : null;
  const form = dialog?.querySelector('form');
  if (!dialog || !form) return;
  screen = dialog;
  const fields = [...form.querySelectorAll('input')];
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  let opener: HTMLElement | null = null;
  let started: Promise<unknown> | null = null;
  const readParams = () => openingParameters({ hostname: window.location.hostname, search: window.location.search });

  let testNoteShown = false;
  const showTestNote = () => {
    const note = dialog.querySelector('[data-early-test-note]');
    const promise = form.querySelector('[data-capture-promise]');
    if (testNoteShown || !(note instanceof HTMLTemplateElement) || !promise) return;
    promise.replaceWith(note.content.cloneNode(true));
    testNoteShown = true;
  };

  /** Gives the assessment to the modal (opened once its code runs), on `flow` as the server answered it. */
  const handOver = (details: EarlyCapture['details'], flow: Promise<unknown>, sent: () => boolean) => {
    submitted = {
      details,
      opener,
      flow,
      get sent() {
        return sent();
      },
    };
    begin();
    taker?.(submitted);
  };

  const ready = () => fields.every((field) => field.value.trim() !== '');
  const close = () => {
    if (submitted) return;
    dialog.remove();
    opener?.focus();
  };
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target.closest<HTMLElement>(OPENS_ASSESSMENT) : null;
      if (!target || !root.contains(target) || submitted) return;
      // read at each opening: the testing panel's switch may have changed it
      const params = readParams();
      if (modalOpensIt(params)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      opener = target;
      if (params.testing) showTestNote();
      document.body.append(dialog);
      fields[0]!.focus();
      // one flow per page, however often the screen is opened
      const flow = (started ??= post('/api/flows', startBody(params)));
      flow.then(
        (answer) => {
          // the server opened it elsewhere than the capture (a returning visitor's results): the modal shows that
          if (flowAt(answer).state !== 'capture.editing' && !submitted && dialog.isConnected) handOver(null, flow, () => false);
        },
        () => {
          if (started === flow) started = null;
        },
      );
      prefetch();
      begin();
    },
    true,
  );
  form.addEventListener('input', () => {
    submit.disabled = !ready();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!ready() || submitted) return;
    const [name, email] = [fields[0]!.value, fields[1]!.value];
    rememberEmail(email);
    let sent = false;
    const flow = (started ?? post('/api/flows', startBody(readParams()))).then(async (answer) => {
      const { flowId, state, version } = flowAt(answer);
      if (state !== 'capture.editing') return answer;
      try {
        const taken = await post(`/api/flows/${encodeURIComponent(flowId)}/events`, {
          event: { type: 'CAPTURE_SUBMIT', name, email },
          expectedVersion: version,
        });
        sent = true;
        return taken;
      } catch {
        // refused or unanswered: the modal's capture step sends it again and shows what the server says
        return answer;
      }
    });
    // a flow that could not start is the modal's to start (FlowSource.started), whenever it mounts
    flow.catch(() => {});
    for (const field of fields) field.disabled = true;
    submit.disabled = true;
    submit.setAttribute('aria-busy', 'true');
    submit.textContent = 'Starting...';
    handOver({ name, email }, flow, () => sent);
  });
  // the close button, or a tap outside the panel, as the modal's
  dialog.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('[data-early-close]') || target?.hasAttribute('data-early-outside')) close();
  });
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
    // focus stays in the dialog, as the modal's does
    if (event.key !== 'Tab') return;
    const focusable = [...dialog.querySelectorAll<HTMLElement>('button:not(:disabled), input:not(:disabled)')];
    const edge = event.shiftKey ? focusable[0] : focusable.at(-1);
    if (document.activeElement === edge) {
      event.preventDefault();
      (event.shiftKey ? focusable.at(-1) : focusable[0])?.focus();
    }
  });
}
