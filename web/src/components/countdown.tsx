import { useEffect, useRef } from 'react';
import { cx } from '#web/components/ui/index.js';
import { countdownAnnouncement } from '../lib/screen-clock.js';

/** The visible countdown (role=timer) and, separately, a live region that speaks only at a few moments. */
export function Countdown({ left, limit }: { left: number; limit: number }) {
  // A live region speaks when its text changes, so the words go in only at the moments worth
  // saying, and stay until the next one.
  const liveRegion = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const words = countdownAnnouncement(left, limit);
    if (words && liveRegion.current) liveRegion.current.textContent = words;
  }, [left, limit]);
  const low = left <= 10;
  const radius = 20;
  const circumference = 2 * Math.PI * radius;
  return (
    <div className="flex shrink-0 items-center gap-3 self-start rounded-full border border-line bg-white py-1.5 pr-4 pl-1.5 shadow-soft">
      <svg viewBox="0 0 48 48" className="size-11 -rotate-90" aria-hidden="true">
        <circle cx="24" cy="24" r={radius} fill="none" stroke="currentColor" strokeWidth="4" className="text-ink/10" />
        <circle
          cx="24"
          cy="24"
          r={radius}
          fill="none"
          stroke="currentColor"
          strokeWidth="4"
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - left / limit)}
          className={cx('transition-[stroke-dashoffset] duration-300 ease-linear', low ? 'text-danger' : 'text-brass')}
        />
      </svg>
      <div className="flex flex-col leading-tight">
        <span
          role="timer"
          aria-label={`${left} seconds left`}
          className={cx('text-xl font-semibold tabular-nums', low ? 'text-danger' : 'text-ink')}
        >
          0:{String(left).padStart(2, '0')}
        </span>
        <span className="text-xs text-muted">time left</span>
      </div>
      <span ref={liveRegion} className="sr-only" aria-live="polite" aria-atomic="true" />
    </div>
  );
}
