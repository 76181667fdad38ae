import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useRef, useState, type ComponentType, type SVGProps } from 'react';
import { Navigate, NavLink, Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router-dom';
import { ToastProvider, cx, useToast } from '../../components/ui/index.js';
import { SIGN_OUT_FAILED_TOAST, SIGNED_OUT_STATE } from '../../app/signed-out-notice.js';
import { signInPathFor } from '../../lib/admin-return-path.js';
import { useFocusOnNavigate } from '../../lib/focus-on-navigate.js';
import { signOut, useSession } from '../../lib/session.js';
import { ChangePasswordScreen } from './change-password.js';
import { SignedInNotice } from './signed-in-notice.js';
import {
  EmailsIcon,
  GradingIcon,
  IntegrationsIcon,
  JobsIcon,
  LeadsIcon,
  MachinesIcon,
  MessagesIcon,
  MirrorIcon,
  MonitorIcon,
  OverviewIcon,
  SettingsIcon,
  SidebarIcon,
} from './icons.js';
import { useSidebarState } from './sidebar-state.js';

interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  end?: boolean;
}

/** The sidebar's items: the product's five, the Mirror sessions, then the operations screens and the site settings. */
const ADMIN_NAV: NavItem[] = [
  { to: '/admin', label: 'Overview', icon: OverviewIcon, end: true },
  { to: '/admin/leads', label: 'Leads', icon: LeadsIcon },
  { to: '/admin/integrations', label: 'Integrations', icon: IntegrationsIcon },
  { to: '/admin/monitor', label: 'Team-chat Monitor', icon: MonitorIcon },
  { to: '/admin/messages', label: 'Messages', icon: MessagesIcon },
  { to: '/admin/mirror-sessions', label: 'Mirror Sessions', icon: MirrorIcon },
  { to: '/admin/jobs', label: 'Jobs', icon: JobsIcon },
  { to: '/admin/machines', label: 'Machines', icon: MachinesIcon },
  { to: '/admin/grading', label: 'Grading rules', icon: GradingIcon },
  { to: '/admin/emails', label: 'Emails', icon: EmailsIcon },
  { to: '/admin/settings', label: 'Site settings', icon: SettingsIcon },
];

const SIDEBAR_ID = 'admin-sidebar';

function NavList({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  return (
    <ul className="flex flex-col gap-1">
      {ADMIN_NAV.map(({ to, label, icon: ItemIcon, end }) => (
        <li key={to}>
          <NavLink
            to={to}
            end={end}
            onClick={onNavigate}
            title={compact ? label : undefined}
            className={({ isActive }) =>
              cx(
                'group flex min-h-10 items-center gap-3 rounded-xl text-[0.95rem] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
                compact ? 'justify-center px-0' : 'px-3',
                isActive ? 'bg-white/10 text-white' : 'text-mist hover:bg-white/5 hover:text-white',
              )
            }
          >
            {({ isActive }) => (
              <>
                <span
                  className={cx(
                    'flex size-5 items-center justify-center',
                    isActive ? 'text-brass' : 'text-mist group-hover:text-brass-light',
                  )}
                >
                  <ItemIcon />
                </span>
                <span className={cx('truncate', compact && 'sr-only')}>{label}</span>
              </>
            )}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function SignOutButton({ className }: { className?: string }) {
  const navigate = useNavigate();
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const leave = () => {
    setBusy(true);
    signOut().then(
      () => {
        // the site's own toast says so: this area's toasts leave with it; nothing waits for the
        // navigation (the router shows any failure itself)
        void navigate('/', { replace: true, state: SIGNED_OUT_STATE });
      },
      () => {
        setBusy(false);
        toast({ ...SIGN_OUT_FAILED_TOAST, variant: 'destructive' });
      },
    );
  };
  return (
    <button
      type="button"
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={leave}
      className={cx(
        'inline-flex min-h-9 items-center rounded-full border border-ink/20 px-4 text-sm font-semibold text-ink transition-colors hover:border-ink/50 hover:bg-white disabled:opacity-60',
        className,
      )}
    >
      Sign Out
    </button>
  );
}

function Shell({ email }: { email: string }) {
  const sidebar = useSidebarState();
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigate(main);
  const compact = !sidebar.mobile && !sidebar.expanded;
  const open = sidebar.mobile ? sidebar.sheetOpen : sidebar.expanded;

  return (
    <div className="min-h-screen bg-sand text-ink" data-sidebar={sidebar.mobile ? 'sheet' : sidebar.expanded ? 'expanded' : 'collapsed'}>
      <a
        href="#admin-main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
        className="fixed top-3 left-3 z-[60] -translate-y-24 rounded-full bg-ink px-5 py-3 font-semibold text-white shadow-lift transition-transform focus:translate-y-0"
      >
        Skip to main content
      </a>
      <header className="fixed inset-x-0 top-0 z-40 flex h-16 items-center gap-3 border-b border-line bg-paper/95 px-3 backdrop-blur sm:px-5">
        <button
          type="button"
          onClick={sidebar.toggle}
          aria-expanded={open}
          aria-controls={sidebar.mobile ? undefined : SIDEBAR_ID}
          aria-keyshortcuts="Control+B Meta+B"
          title="Toggle sidebar (Ctrl+B)"
          className="flex size-10 items-center justify-center rounded-xl text-ink transition-colors hover:bg-ink/5 focus-visible:outline-2 focus-visible:outline-brass"
        >
          <SidebarIcon />
          <span className="sr-only">Toggle sidebar</span>
        </button>
        <div className="flex min-w-0 items-center gap-2.5">
          <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true" focusable="false">
            <circle cx="16" cy="16" r="15" className="fill-ink" />
            <path d="M16 6l3.2 10L16 26l-3.2-10L16 6Z" className="fill-brass" />
            <circle cx="16" cy="16" r="2" className="fill-paper" />
          </svg>
          <p className="truncate font-serif text-lg tracking-tight">
            Admin <span className="hidden text-muted sm:inline">Dashboard</span>
          </p>
        </div>
        <div className="ml-auto flex min-w-0 items-center gap-3">
          <p className="hidden min-w-0 truncate text-sm text-muted sm:block" data-testid="admin-user">
            <span className="sr-only">Signed in as </span>
            <span className="font-medium text-ink">{email}</span>
          </p>
          <SignOutButton />
        </div>
      </header>

      {sidebar.mobile ? (
        <Dialog open={sidebar.sheetOpen} onClose={() => sidebar.setSheetOpen(false)} className="relative z-50">
          <DialogBackdrop className="fixed inset-0 bg-ink/50" />
          <DialogPanel data-admin-sheet className="fixed inset-y-0 left-0 flex w-[18rem] flex-col bg-ink px-3 py-4 text-white shadow-lift">
            <DialogTitle className="px-3 pb-3 font-serif text-lg">Admin menu</DialogTitle>
            <p className="mb-4 truncate px-3 text-sm text-mist">
              <span className="sr-only">Signed in as </span>
              {email}
            </p>
            <nav aria-label="Admin">
              <NavList compact={false} onNavigate={() => sidebar.setSheetOpen(false)} />
            </nav>
          </DialogPanel>
        </Dialog>
      ) : (
        <aside
          id={SIDEBAR_ID}
          aria-label="Admin sidebar"
          className={cx(
            'fixed top-16 bottom-0 left-0 z-30 overflow-y-auto overflow-x-hidden bg-ink py-4 transition-[width] duration-200 motion-reduce:transition-none',
            compact ? 'w-12 px-1.5' : 'w-64 px-3',
          )}
        >
          <nav aria-label="Admin">
            <NavList compact={compact} />
          </nav>
          {!compact && <p className="mt-6 px-3 text-xs text-mist/80">Press Ctrl+B to collapse</p>}
        </aside>
      )}

      <main
        id="admin-main"
        ref={main}
        tabIndex={-1}
        className={cx(
          'min-h-screen pt-16 transition-[padding] duration-200 focus:outline-none motion-reduce:transition-none',
          sidebar.mobile ? '' : compact ? 'pl-12' : 'pl-64',
        )}
      >
        <div className="mx-auto max-w-6xl px-4 py-8 sm:px-8 sm:py-10">
          <Outlet />
        </div>
      </main>
      <ScrollRestoration />
    </div>
  );
}

function Guarded() {
  const session = useSession();
  const location = useLocation();
  // the sign-in page brings the admin back to this page
  if (session.status === 'signed-out') return <Navigate to={signInPathFor(location.pathname + location.search + location.hash)} replace />;
  if (!session.user)
    return (
      <div className="flex min-h-screen items-center justify-center bg-sand" aria-busy="true">
        <p className="text-muted">Checking your session...</p>
      </div>
    );
  if (session.user.mustChangePassword) return <ChangePasswordScreen email={session.user.email} signOut={<SignOutButton />} />;
  return <Shell email={session.user.email} />;
}

/** /admin/*: the admin area's own layout (not the public site's), signed-in admins only. */
export function AdminLayout() {
  return (
    <ToastProvider>
      <title>Admin | Leadership Coaching</title>
      <SignedInNotice />
      <Guarded />
    </ToastProvider>
  );
}
