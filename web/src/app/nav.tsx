import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { Button, cx, useToast } from '../components/ui/index.js';
import { useAssessment } from '../features/assessment/launcher.js';
import { useRunningInBrowser } from '../lib/running-in-browser.js';
import { signOut, useSession } from '../lib/session.js';
import { BrandMark } from './brand.js';
import { MENU_BUTTON_CLASSES, MenuGlyph } from './menu-button.js';
import MobileMenu from './mobile-menu.js';
import { SIGN_OUT_FAILED_TOAST, SIGNED_OUT_TOAST } from './signed-out-notice.js';
import { NAV_LINKS } from './site.js';

function useSignOut() {
  const { toast } = useToast();
  return () => {
    signOut().then(
      () => toast(SIGNED_OUT_TOAST),
      () => toast({ ...SIGN_OUT_FAILED_TOAST, variant: 'destructive' }),
    );
  };
}

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  cx(
    'relative rounded-md px-1 py-2 text-[0.95rem] font-medium transition-colors',
    'after:absolute after:inset-x-1 after:-bottom-0.5 after:h-0.5 after:rounded-full after:transition-colors',
    isActive ? 'text-ink after:bg-brass' : 'text-muted hover:text-ink after:bg-transparent',
  );

/** The fixed navigation bar: four links, the assessment call to action or (signed in) Dashboard, the email and Sign Out; a menu below 768 px. */
export function SiteNav() {
  const session = useSession();
  const { open } = useAssessment();
  const onSignOut = useSignOut();
  const email = session.user?.email;
  // The menu is drawn once the page runs in the browser; the page the server rendered, and its
  // hydration, have this stand-in instead. A tap on it before the page is live is replayed on the
  // real menu (web/src/lib/hydrate-on-intent.ts); one during hydration opens the menu as it mounts
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const running = useRunningInBrowser();
  const menuButton = (
    <button type="button" className={MENU_BUTTON_CLASSES} aria-expanded={openOnLoad} onClick={() => setOpenOnLoad(true)}>
      <span className="sr-only">{openOnLoad ? 'Close menu' : 'Open menu'}</span>
      <MenuGlyph open={openOnLoad} />
    </button>
  );

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-line/80 bg-paper">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-6 px-6 sm:px-8">
        <Link to="/" className="flex items-center gap-3 rounded-md py-1">
          <BrandMark />
        </Link>

        <ul className="hidden items-center gap-7 md:flex">
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end className={desktopLink}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>

        <div className="hidden items-center gap-3 md:flex">
          {email ? (
            <>
              <Link to="/admin" className="rounded-md px-1 py-2 text-[0.95rem] font-semibold text-ink underline-offset-4 hover:underline">
                Dashboard
              </Link>
              <span className="max-w-48 truncate text-sm text-muted" title={email}>
                <span className="sr-only">Signed in as </span>
                {email}
              </span>
              <Button variant="secondary" size="sm" onClick={onSignOut}>
                Sign Out
              </Button>
            </>
          ) : (
            <Button size="sm" aria-haspopup="dialog" onClick={() => open()}>
              Free Assessment
            </Button>
          )}
        </div>

        {running ? <MobileMenu defaultOpen={openOnLoad} email={email} onSignOut={onSignOut} onAssessment={() => open()} /> : menuButton}
      </nav>
    </header>
  );
}
