import type { ReactNode } from 'react';
import { cx } from '../../components/ui/index.js';

/** Label and value pairs side by side (the labels are short enough for a phone too). */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-3 sm:gap-x-6">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-sm font-semibold text-muted">{label}</dt>
          <dd className="min-w-0 break-words text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Badge({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'good' | 'bad' }) {
  return (
    <span
      className={cx(
        'inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold',
        tone === 'good' ? 'bg-success/15 text-ink' : tone === 'bad' ? 'bg-danger-soft text-danger' : 'bg-sand text-ink',
      )}
    >
      {children}
    </span>
  );
}

export const statusTone = (status: string) =>
  ['succeeded', 'sent', 'completed', 'recorded'].includes(status) ? 'good' : status === 'failed' ? 'bad' : 'neutral';

/**
 * The code's own names (state paths, event types, queues, ids) behind a disclosure: the coach reads
 * words, a developer opens this. Long dotted names wrap anywhere rather than widen the card.
 */
export function TechnicalDetails({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <details className="mt-1 text-xs text-muted">
      <summary className="w-fit cursor-pointer rounded font-semibold hover:text-ink">Technical details</summary>
      <dl className="mt-1 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 rounded-lg bg-sand/60 px-3 py-2">
        {items.map(([label, value]) => (
          <div key={label} className="contents">
            <dt>{label}</dt>
            <dd className="min-w-0 font-mono wrap-anywhere text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
