import { useEffect, useRef, type MouseEvent } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { ToastProvider } from '../components/ui/index.js';
import { AssessmentProvider } from '../features/assessment/launcher.js';
import { useFocusOnNavigate } from '../lib/focus-on-navigate.js';
import { recordVisit } from '../lib/visits.js';
import { SiteFooter } from './footer.js';
import { SiteNav } from './nav.js';
import { SignedOutNotice } from './signed-out-notice.js';

function SkipLink({ target }: { target: React.RefObject<HTMLElement | null> }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    target.current?.focus();
    target.current?.scrollIntoView();
  };
  return (
    <a
      href="#main"
      onClick={skip}
      className="fixed top-3 left-3 z-50 -translate-y-24 rounded-full bg-ink px-5 py-3 font-semibold text-white shadow-lift transition-transform focus:translate-y-0"
    >
      Skip to main content
    </a>
  );
}

/** Every public page: skip link, fixed navigation, the page, footer; toasts and the assessment modal above them. */
export function RootLayout() {
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigate(main);
  useEffect(recordVisit, []);
  return (
    <ToastProvider>
      <AssessmentProvider>
        <SkipLink target={main} />
        <SiteNav />
        <SignedOutNotice />
        <main id="main" ref={main} tabIndex={-1} className="min-h-[70vh] focus:outline-none">
          <Outlet />
        </main>
        <SiteFooter />
        <ScrollRestoration />
      </AssessmentProvider>
    </ToastProvider>
  );
}
