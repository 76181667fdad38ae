import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { safeRemove, safeSet, sessionStore, type KeyValueStore } from './flows/storage.js';

/** Whole seconds left on a countdown of `limitSec` started at `startedAt`, never below zero. */
export function secondsLeft(startedAt: number, limitSec: number, now: number): number {
  return Math.max(0, Math.ceil((startedAt + limitSec * 1000 - now) / 1000));
}

/**
 * What a timed screen says once its countdown reaches zero. The server records the default answer
 * (its own timer, after a short grace for the network) and the next screen arrives as its push.
 */
export const TIME_UP_MESSAGE = 'Time is up. Your default answer is being recorded.';

/** What the live region says at this second, or null to stay quiet (it must not speak every second). */
export function countdownAnnouncement(left: number, limitSec: number): string | null {
  if (left === 0) return TIME_UP_MESSAGE;
  if (left === limitSec) return null;
  if (left === 30 || left === 20 || left === 10 || left === 5) return `${left} seconds left`;
  return null;
}

const CLOCK_PREFIX = 'hf:shown:';

/**
 * When the screen `key` was first shown in this tab, kept in sessionStorage so that a reload
 * neither restarts a timed question's countdown nor forgets how long the visitor has been on a
 * screen (its response time).
 */
export function screenShownAt(key: string, store: KeyValueStore = sessionStore(), now = Date.now()): number {
  const kept = Number(store.getItem(CLOCK_PREFIX + key));
  if (Number.isFinite(kept) && kept > 0 && kept <= now) return kept;
  safeSet(store, CLOCK_PREFIX + key, String(now));
  return now;
}

/** Forgets a screen's clock once it is answered. */
export function forgetScreen(key: string, store: KeyValueStore = sessionStore()): void {
  safeRemove(store, CLOCK_PREFIX + key);
}

/** The screen's clock: when it was shown, and its elapsed time in ms for the answer's responseTime. */
export function useScreenClock(key: string): { shownAt: number; elapsedMs: () => number } {
  // idempotent (the first time is kept), so safe to compute during render
  const shownAt = useMemo(() => screenShownAt(key), [key]);
  return { shownAt, elapsedMs: () => Math.max(0, Math.round(Date.now() - shownAt)) };
}

/**
 * A visible countdown of `limitSec` from `shownAt` while `active`, ticking four times a second so
 * the shown second changes on time; `onExpire` is called once when it reaches zero. Display only:
 * the server's machine enforces the limit.
 */
export function useCountdown(shownAt: number, limitSec: number | null, active: boolean, onExpire: () => void): number | null {
  const [now, setNow] = useState(() => Date.now());
  const expire = useEffectEvent(() => onExpire());
  const fired = useRef<number | null>(null);
  useEffect(() => {
    if (!active || limitSec === null) return;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      if (secondsLeft(shownAt, limitSec, at) === 0 && fired.current !== shownAt) {
        fired.current = shownAt;
        expire();
      }
    };
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [shownAt, limitSec, active]);
  return limitSec === null ? null : secondsLeft(shownAt, limitSec, now);
}
