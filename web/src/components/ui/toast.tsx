import { createContext, useCallback, useContext, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useRunningInBrowser } from '../../lib/running-in-browser.js';
import { cx } from './cx.js';

type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastOptions {
  /** Bold first line; null or omitted for a description-only toast (e.g. 'Welcome back!'). */
  title?: string | null;
  description?: string | null;
  /** destructive: an error, announced assertively and shown in red */
  variant?: ToastVariant;
  /** Milliseconds on screen; defaults to 3 s, 4 s for destructive. Paused on hover and focus. */
  duration?: number;
}

interface ToastItem extends Required<Pick<ToastOptions, 'variant' | 'duration'>> {
  id: number;
  title: string | null;
  description: string | null;
}

interface ToastApi {
  toast: (options: ToastOptions) => number;
  dismiss: (id: number) => void;
}

/** Toast durations of 3 s and 4 s. */
const TOAST_DURATION = { default: 3_000, destructive: 4_000 } as const;

const ToastContext = createContext<ToastApi | null>(null);

/**
 * Keeps the toasts and renders them in a region appended to <body>, outside the app root: a modal
 * dialog makes the app root inert, and toasts must still show and be announced above it. Screen
 * readers hear each toast through two live regions that exist before any toast does (a region
 * inserted together with its text is often not announced).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const [announcement, setAnnouncement] = useState<{ polite: string; assertive: string }>({ polite: '', assertive: '' });
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const toast = useCallback((options: ToastOptions) => {
    const id = nextId.current++;
    const variant = options.variant ?? 'default';
    const item: ToastItem = {
      id,
      title: options.title ?? null,
      description: options.description ?? null,
      variant,
      duration: options.duration ?? (variant === 'destructive' ? TOAST_DURATION.destructive : TOAST_DURATION.default),
    };
    // newest last; at most three on screen
    setToasts((list) => [...list, item].slice(-3));
    // a trailing zero-width space alternates so that the same message twice is announced twice
    const text = spoken(item) + (id % 2 ? '\u200b' : '');
    setAnnouncement((current) => (variant === 'destructive' ? { ...current, assertive: text } : { ...current, polite: text }));
    return id;
  }, []);

  const api = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);
  // the live regions live in document.body, which a page rendered on the server has not got:
  // they mount once the page runs, before any toast can be shown
  const mounted = useRunningInBrowser();

  return (
    <ToastContext.Provider value={api}>
      {children}
      {mounted &&
        createPortal(
          // a landmark of its own: the toasts sit outside the page's main, header and footer
          <section aria-label="Notifications" className="hf-toasts">
            <div className="sr-only" role="status" aria-live="polite" aria-atomic="true">
              {announcement.polite}
            </div>
            <div className="sr-only" role="alert" aria-live="assertive" aria-atomic="true">
              {announcement.assertive}
            </div>
            <ol className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex flex-col items-center gap-3 p-4 sm:inset-x-auto sm:right-0 sm:items-end sm:p-6">
              {toasts.map((item) => (
                <ToastCard key={item.id} item={item} onDismiss={() => dismiss(item.id)} />
              ))}
            </ol>
          </section>,
          document.body,
        )}
    </ToastContext.Provider>
  );
}

/** A toast as one sentence to hear: a title that ends its own sentence ('Message Sent Successfully!') gets no added full stop. */
function spoken({ title, description }: Pick<ToastItem, 'title' | 'description'>): string {
  if (!title) return description ?? '';
  if (!description) return title;
  return /[.!?]$/.test(title) ? `${title} ${description}` : `${title}. ${description}`;
}

function ToastCard({ item, onDismiss }: { item: ToastItem; onDismiss: () => void }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(item.duration);
  const dismissWhenDue = useEffectEvent(() => onDismiss());
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = window.setTimeout(() => dismissWhenDue(), remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current = Math.max(800, remaining.current - (Date.now() - started));
    };
  }, [paused]);

  const destructive = item.variant === 'destructive';
  return (
    <li
      data-toast={item.variant}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={cx(
        'pointer-events-auto flex w-full max-w-sm animate-toast-in items-start gap-3 rounded-2xl border p-4 pr-3 shadow-lift',
        destructive ? 'border-danger/30 bg-danger-soft text-ink' : 'border-line bg-white text-ink',
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          'mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold',
          destructive ? 'bg-danger text-white' : 'bg-ink text-brass',
        )}
      >
        {destructive ? '!' : '✓'}
      </span>
      <div className="min-w-0 flex-1">
        {item.title && <p className={cx('font-semibold', destructive && 'text-danger')}>{item.title}</p>}
        {item.description && (
          <p className={cx('text-sm leading-relaxed text-muted', !item.title && 'text-base font-medium text-ink')}>{item.description}</p>
        )}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        className="-m-1 rounded-full p-1.5 text-muted transition-colors hover:bg-ink/5 hover:text-ink"
        aria-label="Dismiss notification"
      >
        <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
          <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94 5.28 4.22Z" />
        </svg>
      </button>
    </li>
  );
}

/** `toast({ title, description, variant })` from anywhere under ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a ToastProvider');
  return api;
}
