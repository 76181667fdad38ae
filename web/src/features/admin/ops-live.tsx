import { useEffect } from 'react';
import { cx } from '../../components/ui/index.js';

/** How often the ops screens reload while the live socket is down (with it up, its frames drive reloads). */
export const FALLBACK_POLL_MS = 30_000;
/** How soon after a live frame the ops screens reload (a burst of frames makes one reload). */
export const LIVE_RELOAD_MS = 400;

/** Calls `tick` every `ms` while `running`; the ops screens' fallback poll. */
export function useInterval(tick: () => void, ms: number, running: boolean) {
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, [tick, ms, running]);
}

/** Whether the live socket is up: the ops screens update themselves, or poll slowly while it reconnects. */
export function LiveIndicator({ live }: { live: boolean }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm font-semibold text-ink" data-live={live}>
      <span
        aria-hidden="true"
        className={cx('inline-block size-2 rounded-full', live ? 'animate-pulse bg-success motion-reduce:animate-none' : 'bg-danger')}
      />
      {live ? 'Live' : 'Reconnecting...'}
    </span>
  );
}
