import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { useEffect, useRef } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Button, cx, useToast } from '../components/ui';
import { useAssessment } from '../features/assessment/launcher';
import { signOut, useSession } from '../lib/session';
import { BrandMark } from './brand';
import { NAV_LINKS } from './site';

/** Spec section 2: the sign-out toasts of the navigation bar. */
const SIGNED_OUT_TOAST = { title: 'Signed out', description: "You've been successfully signed out." } as const;
const SIGN_OUT_FAILED_TOAST = { title: 'Error', description: 'Failed to sign out. Please try again.' } as const;

function useSignOut() {
  const { toast } = useToast();
  return async () => {
    try {
      await signOut();
      toast(SIGNED_OUT_TOAST);
    } catch {
      toast({ ...SIGN_OUT_FAILED_TOAST, variant: 'destructive' });
    }
  };
}

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  cx(
    'relative rounded-md px-1 py-2 text-[0.95rem] font-medium transition-colors',
    'after:absolute after:inset-x-1 after:-bottom-0.5 after:h-0.5 after:rounded-full after:transition-colors',
    isActive ? 'text-ink after:bg-brass' : 'text-muted hover:text-ink after:bg-transparent',
  );

/**
 * What Headless UI's Disclosure leaves to its user, for a menu: Escape and a click outside close
 * it (focus back on the button for Escape), as does widening the window past 768 px or navigating.
 * Disclosure, not Popover: Popover's positioning engine would add about 25 KB gzip to every
 * page's first load, and this panel needs no positioning.
 */
function MenuDismissal({ open, close, button, panel }: {
  open: boolean;
  close: (focus?: HTMLElement) => void;
  button: React.RefObject<HTMLButtonElement | null>;
  panel: React.RefObject<HTMLDivElement | null>;
}) {
  const { pathname, hash } = useLocation();
  const navigated = useRef(`${pathname}${hash}`);
  useEffect(() => {
    if (navigated.current === `${pathname}${hash}`) return;
    navigated.current = `${pathname}${hash}`;
    close();
  }, [pathname, hash, close]);
  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(button.current ?? undefined);
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) close();
    };
    const wide = window.matchMedia('(min-width: 768px)');
    const onWide = () => wide.matches && close();
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    wide.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      wide.removeEventListener('change', onWide);
    };
  }, [open, close, button, panel]);
  return null;
}

/** The fixed navigation bar: four links, the assessment call to action or the signed-in email and Sign Out; a menu below 768 px. */
export function SiteNav() {
  const session = useSession();
  const { open } = useAssessment();
  const onSignOut = useSignOut();
  const email = session.user?.email;
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  return (
    <Disclosure as="header" className="fixed inset-x-0 top-0 z-40 border-b border-line/80 bg-paper">
      {({ open: menuOpen, close }) => (
        <>
          <MenuDismissal open={menuOpen} close={close} button={button} panel={panel} />
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

            <DisclosureButton
              ref={button}
              className="-mr-2 inline-flex size-11 items-center justify-center rounded-full text-ink transition-colors hover:bg-ink/5 md:hidden"
            >
              <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
              <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
                {menuOpen ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
              </svg>
            </DisclosureButton>
          </nav>

          <DisclosurePanel ref={panel} className="md:hidden">
            <div aria-hidden="true" className="fixed inset-x-0 top-16 bottom-0 bg-ink/25" />
            <div className="absolute inset-x-0 top-full animate-menu-in border-b border-line bg-paper shadow-lift">
              <ul className="flex flex-col px-4 pt-3 pb-2">
                {NAV_LINKS.map((link) => (
                  <li key={link.to}>
                    <NavLink
                      to={link.to}
                      end
                      onClick={() => close()}
                      className={({ isActive }) =>
                        cx('flex min-h-12 items-center rounded-xl px-3 text-lg font-medium', isActive ? 'bg-sand text-ink' : 'text-muted hover:bg-sand hover:text-ink')
                      }
                    >
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
              <div className="border-t border-line px-7 py-5">
                {email ? (
                  <div className="flex items-center justify-between gap-4">
                    <span className="min-w-0 truncate text-sm text-muted">
                      <span className="sr-only">Signed in as </span>
                      {email}
                    </span>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => {
                        close();
                        void onSignOut();
                      }}
                    >
                      Sign Out
                    </Button>
                  </div>
                ) : (
                  <Button
                    block
                    aria-haspopup="dialog"
                    onClick={() => {
                      close();
                      open();
                    }}
                  >
                    Take the Free Assessment
                  </Button>
                )}
              </div>
            </div>
          </DisclosurePanel>
        </>
      )}
    </Disclosure>
  );
}
