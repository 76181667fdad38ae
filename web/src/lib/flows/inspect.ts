import type { InspectionEvent, Observer } from 'xstate';

type InspectObserver = Observer<InspectionEvent>;

let observer: InspectObserver | null | undefined;

/**
 * The `inspect` option for createActor: in a development build opened with `?inspect`, the
 * Stately inspector (@statelyai/inspect's browser inspector, in a new window) sees every actor
 * given it; otherwise undefined. The test on import.meta.env.DEV is a constant in a production
 * build, so the bundler drops this branch and the inspector's chunk with it.
 */
export function inspectOption(): InspectObserver | undefined {
  if (!import.meta.env.DEV) return undefined;
  if (observer !== undefined) return observer ?? undefined;
  if (typeof window === 'undefined' || !new URLSearchParams(window.location.search).has('inspect')) {
    observer = null;
    return undefined;
  }
  // The inspector loads asynchronously while actors start at once: events wait here until it is
  // ready (it buffers in its turn until its window answers).
  const waiting: InspectionEvent[] = [];
  let ready: InspectObserver | null = null;
  observer = {
    next: (event) => {
      if (ready) ready.next?.(event);
      else waiting.push(event);
    },
  };
  void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    ready = createBrowserInspector().inspect;
    for (const event of waiting.splice(0)) ready.next?.(event);
  });
  return observer;
}
