import type { ReactNode } from 'react';
import { cx } from '#web/components/ui/index.js';

/** A diagnostic screen's question: focused (but not tabbable) when the screen appears. */
export function ScreenHeading({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <h3 tabIndex={-1} data-screen-heading className={cx('font-serif leading-snug text-ink focus:outline-none', className)}>
      {children}
    </h3>
  );
}
