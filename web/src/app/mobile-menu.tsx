import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { Fragment, useEffect, useRef } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Button, cx } from '../components/ui/index.js';
import { MENU_BUTTON_CLASSES, MenuGlyph } from './menu-button.js';
import { NAV_LINKS } from './site.js';

/**
 * What Headless UI's Disclosure leaves to its user, for a menu: Escape and a click outside close
 * it (focus back on the button for Escape), as does widening the window past 768 px or navigating.
 * Disclosure, not Popover: Popover's positioning engine would add about 25 KB gzip to every
 * page's first load, and this panel needs no positioning.
 */
function MenuDismissal({
  open,
  close,
  button,
  panel,
}: {
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

/**
 * The navigation's menu below 768 px: its button and its panel, which hangs below the fixed header.
 * A module of its own, loaded after the page: Headless UI stays out of every page's first load.
 */
export default function MobileMenu({
  defaultOpen,
  email,
  onSignOut,
  onAssessment,
}: {
  defaultOpen: boolean;
  email: string | undefined;
  onSignOut: () => void;
  onAssessment: () => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  return (
    <Disclosure as={Fragment} defaultOpen={defaultOpen}>
      {({ open: menuOpen, close }) => (
        <>
          <MenuDismissal open={menuOpen} close={close} button={button} panel={panel} />
          <DisclosureButton ref={button} className={MENU_BUTTON_CLASSES}>
            <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
            <MenuGlyph open={menuOpen} />
          </DisclosureButton>
          {/* display: contents, so the open panel takes no place in the bar and the button stays put */}
          <DisclosurePanel ref={panel} className="contents md:hidden">
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
                        cx(
                          'flex min-h-12 items-center rounded-xl px-3 text-lg font-medium',
                          isActive ? 'bg-sand text-ink' : 'text-muted hover:bg-sand hover:text-ink',
                        )
                      }
                    >
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
              <div className="border-t border-line px-7 py-5">
                {email ? (
                  <div className="flex flex-wrap items-center justify-between gap-4">
                    <Link
                      to="/admin"
                      onClick={() => close()}
                      className="flex min-h-11 items-center font-semibold text-ink underline-offset-4 hover:underline"
                    >
                      Dashboard
                    </Link>
                    <span className="min-w-0 truncate text-sm text-muted">
                      <span className="sr-only">Signed in as </span>
                      {email}
                    </span>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => {
                        close();
                        onSignOut();
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
                      onAssessment();
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
