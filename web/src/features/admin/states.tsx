import type { ReactNode } from 'react';
import { Button, cx } from '../../components/ui/index.js';
import { ADMIN_ERROR_MESSAGE, ADMIN_ERROR_TITLE } from './api.js';
import { RefreshIcon } from './icons.js';

/** A screen's heading row: eyebrow, h1, an optional description and actions on the right. */
export function ScreenHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <p className="text-xs font-semibold tracking-[0.18em] text-brass-deep uppercase">Admin</p>
        <h1 className="mt-1 font-serif text-4xl tracking-tight text-ink">{title}</h1>
        {description && <p className="mt-2 max-w-2xl text-muted">{description}</p>}
      </div>
      {actions && <div className="flex max-w-full flex-wrap items-center gap-3">{actions}</div>}
    </div>
  );
}

export function RefreshButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  return (
    <Button variant="secondary" size="sm" onClick={onClick} disabled={loading} aria-busy={loading || undefined}>
      <RefreshIcon className={cx('size-4', loading && 'animate-spin motion-reduce:animate-none')} />
      {loading ? 'Refreshing...' : 'Refresh'}
    </Button>
  );
}

/** A white panel with a heading, for the sections of a screen. */
export function Panel({
  title,
  id,
  children,
  footer,
  className,
}: {
  title: string;
  id: string;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={cx('flex flex-col rounded-3xl border border-line bg-white shadow-soft', className)}>
      <h2 id={id} className="border-b border-line px-6 py-4 font-serif text-xl tracking-tight">
        {title}
      </h2>
      <div className="flex-1 px-6 py-4">{children}</div>
      {footer && <div className="border-t border-line px-6 py-3 text-sm text-muted">{footer}</div>}
    </section>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="py-8 text-center text-muted">{children}</p>;
}

/** The error state of a screen or panel: the product's message and a retry. */
export function ErrorState({ onRetry }: { onRetry: () => void }) {
  return (
    <div
      role="group"
      aria-label={ADMIN_ERROR_TITLE}
      className="flex flex-col items-center gap-4 rounded-3xl border border-danger/25 bg-danger-soft px-6 py-10 text-center"
    >
      <p className="font-semibold text-danger">{ADMIN_ERROR_TITLE}</p>
      <p className="max-w-md text-ink">{ADMIN_ERROR_MESSAGE}</p>
      <Button size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** Grey placeholder bars while data loads. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cx('block animate-pulse rounded-lg bg-sand-deep motion-reduce:animate-none', className)} />;
}

/** A form card while its data loads: a heading and two fields. */
export function FormSkeleton() {
  return (
    <div className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6" aria-busy="true">
      <Skeleton className="h-6 w-48" />
      <Skeleton className="h-11 w-full" />
      <Skeleton className="h-11 w-2/3" />
    </div>
  );
}
