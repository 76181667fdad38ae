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
  // counted as a visit whether or not the visitor goes on to use the page: once the browser is
  // idle (the first read of sessionStorage is slow on a phone, and would lengthen the task that
  // runs this script), or as the visitor leaves before that (recordVisit counts a tab once)
  whenIdle(() => recordVisit());
  window.addEventListener('pagehide', recordVisit, { once: true });
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
  window.addEventListener('load', preloadIdleModules, { once: true });
}

/**
 * Runs `task` when the browser is next idle (within 3 s), telling it how many ms the idle period
 * has left; where there is no requestIdleCallback (Safari), after `fallbackMs` with 8 ms to use.
 */
function whenIdle(task: (msLeft: () => number) => void, fallbackMs = 1000) {
  if ('requestIdleCallback' in window) requestIdleCallback((deadline) => task(() => deadline.timeRemaining()), { timeout: 3000 });
  else
    setTimeout(() => {
      const end = performance.now() + 8;
      task(() => end - performance.now());
    }, fallbackMs);
}

/**
 * Preloads the modules the build listed in the page (web/prerender/idle-modules.ts), as many as
 * an idle period has room for and the rest in the next ones: each link starts a fetch and a
 * compile, and some thirty of them in one go made a long task on a slow phone.
 */
function preloadIdleModules() {
  const list = document.getElementById('hf-idle-modules')?.textContent;
  const hrefs = list ? (JSON.parse(list) as string[]) : [];
  const preloadSome = (msLeft: () => number) => {
    do {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = hrefs.shift()!;
      document.head.append(link);
    } while (hrefs.length > 0 && msLeft() > 1);
    if (hrefs.length > 0) whenIdle(preloadSome, 16);
  };
  if (hrefs.length > 0) whenIdle(preloadSome);
}
