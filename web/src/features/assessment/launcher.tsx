import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useRunningInBrowser } from '../../lib/running-in-browser.js';
import { forgetEarlyCapture, onEarlyCapture } from './early-capture.js';
import type { AssessmentMode } from './assessment-mode.js';
import { loadAssessmentModal } from './load-modal.js';

interface Launcher {
  open: (mode?: AssessmentMode) => void;
}

const LauncherContext = createContext<Launcher>({ open: () => {} });

// The modal and the machines behind it load when a visitor opens it, or points at or focuses a
// button that opens it (AssessmentButton, web/src/lib/hydrate-on-intent.ts).
const AssessmentModal = lazy(loadAssessmentModal);

/** Pages whose ?token= is an email's link of their own (resume, confirm, unsubscribe), not a personal link into the assessment. */
const OWN_TOKEN_PAGES = ['/resume', '/confirm', '/unsubscribe'];

/** Provides `open()` to every call to action and mounts the modal while it is open. */
export function AssessmentProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<AssessmentMode | null>(null);
  // a standalone diagnostic the visitor just finished, which the opening assessment goes on from
  const [diagnosticId, setDiagnosticId] = useState<string | null>(null);
  // The dialog returns focus to the element that opened it. Headless UI tracks focus only from
  // when its code loads, which is after the click that loads the modal, so the opener is kept here.
  const opener = useRef<HTMLElement | null>(null);
  const launcher = useMemo<Launcher>(
    () => ({
      open: (next = 'assessment') => {
        opener.current =
          document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
        setMode(next);
      },
    }),
    [],
  );
  // the capture submitted on the early screen, drawn before this code ran, opens the modal to send it
  useEffect(
    () =>
      onEarlyCapture((capture) => {
        opener.current = capture.opener;
        setMode('assessment');
      }),
    [],
  );
  const close = useCallback(() => {
    forgetEarlyCapture();
    setMode(null);
    setDiagnosticId(null);
    const element = opener.current;
    opener.current = null;
    // after the dialog has gone (and with it the inert state of the page)
    if (element) window.requestAnimationFrame(() => element.isConnected && element.focus());
  }, []);
  const location = useLocation();
  // a personal link (?token=...) opens the assessment at once: the token pre-fills the visitor and
  // skips capture. Looked at once the page runs in the browser, so a page rendered on the server
  // (which has no modal) hydrates as it was drawn
  const running = useRunningInBrowser();
  const [tokenSeen, setTokenSeen] = useState(false);
  if (running && !tokenSeen) {
    setTokenSeen(true);
    if (new URLSearchParams(location.search).get('token') && !OWN_TOKEN_PAGES.includes(location.pathname)) setMode('assessment');
  }
  // the standalone diagnostic ends on /survey with its id: the assessment opens on the survey for it,
  // once (the id leaves the history entry, so Back or a reload does not start it again)
  const navigate = useNavigate();
  const finished = (location.state as { diagnosticId?: unknown } | null)?.diagnosticId;
  const survey = location.pathname === '/survey' && typeof finished === 'string' ? finished : null;
  const [opened, setOpened] = useState<string | null>(null);
  if (survey && opened !== location.key) {
    setOpened(location.key);
    setDiagnosticId(survey);
    setMode('assessment');
  }
  useEffect(() => {
    // nothing waits for the navigation: the router shows any failure itself
    if (survey) void navigate(location.pathname, { replace: true, state: null });
  }, [survey, location.pathname, navigate]);
  return (
    <LauncherContext.Provider value={launcher}>
      {children}
      {mode && (
        <Suspense fallback={null}>
          <AssessmentModal mode={mode} diagnosticId={diagnosticId} onClose={close} />
        </Suspense>
      )}
    </LauncherContext.Provider>
  );
}

/** The assessment launcher: `useAssessment().open()` from any call to action. */
export function useAssessment(): Launcher {
  return useContext(LauncherContext);
}
