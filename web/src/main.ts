import { armEarlyCapture } from './features/assessment/early-capture.js';
import { loadAssessmentModal } from './features/assessment/load-modal.js';
import { hydrateOnIntent } from './lib/hydrate-on-intent.js';
import { recordVisit } from './lib/visits.js';
import './styles.css';

/*
 * The one script every page loads first, kept small: a public page arrives rendered by the server
 * and needs no script to be read, so the site's code (web/src/app/start.tsx) is fetched and
 * hydrated on the visitor's intent (web/src/lib/hydrate-on-intent.ts). Every other page starts
 * from the empty shell and runs at once.
 */

const container = document.getElementById('root')!;
const start = () => import('./app/start.js').then(({ startApp }) => startApp(container));
const prefetch = () => void loadAssessmentModal();

if (!container.hasChildNodes()) void start();
else {
  // counted as a visit whether or not the visitor goes on to use the page
  recordVisit();
  // a personal link (?token=) opens the assessment, a navigation with state (the diagnostic's end,
  // a sign-out) has something to show, and the coach's bar shows their account: those pages start
  // at once, still keeping a click or text that comes before they are live
  const now =
    container.dataset.start === 'now' ||
    new URLSearchParams(window.location.search).has('token') ||
    (history.state as { usr?: unknown } | null)?.usr != null;
  // the assessment's first screen is in the page: shown on a tap, before any of this code runs
  let begin = () => {};
  armEarlyCapture(container, () => begin(), prefetch);
  begin = hydrateOnIntent(container, start, prefetch, { now });
  // the site's and the assessment's code are fetched and compiled (not run, so the page stays
  // still) once it has loaded and the browser is idle: a tap finds them here, not on a slow connection
  const whenIdle = (task: () => void) =>
    'requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 3000 }) : setTimeout(task, 1000);
  window.addEventListener('load', () => whenIdle(preloadIdleModules), { once: true });
}

/** Preloads the modules the build listed in the page (web/prerender/idle-modules.ts). */
function preloadIdleModules() {
  const list = document.getElementById('hf-idle-modules')?.textContent;
  for (const href of list ? (JSON.parse(list) as string[]) : []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}
