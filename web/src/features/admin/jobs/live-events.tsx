import type { AdminLiveJobEvent, AdminLiveJobFrame } from '#machines/protocol/admin-live.js';
import { cx } from '#web/components/ui/index.js';
import { EmptyState } from '../states.js';

/** Job events the live stream keeps, newest first. */
export const LIVE_EVENTS_KEPT = 50;

const EVENT_TONE: Record<AdminLiveJobEvent, string> = {
  waiting: 'bg-sand text-ink',
  delayed: 'bg-sand text-ink',
  active: 'bg-brass/25 text-ink',
  completed: 'bg-success/15 text-success',
  failed: 'bg-danger-soft text-danger',
  'retries-exhausted': 'bg-danger-soft text-danger',
  stalled: 'bg-sand-deep text-ink',
  removed: 'bg-sand-deep text-ink',
};

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** A job frame as the stream keeps it, numbered in arrival order (its key in the list). */
export type LiveJobEvent = AdminLiveJobFrame & { seq: number };

/** The latest job events from the live socket, newest first. */
export function LiveEvents({ events, live }: { events: LiveJobEvent[]; live: boolean }) {
  if (events.length === 0) {
    return <EmptyState>{live ? 'Waiting for job events...' : 'Connecting to the live feed...'}</EmptyState>;
  }
  return (
    <div
      className="max-h-96 overflow-y-auto focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brass"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container needs a tab stop so the keyboard can scroll it (axe: scrollable-region-focusable)
      tabIndex={0}
      role="region"
      aria-label="Live job events (scrolls)"
    >
      <ol className="divide-y divide-line/70" aria-label="Live job events">
        {events.map((event) => (
          <li key={event.seq} data-live-event={event.event} data-job-id={event.jobId} className="flex flex-col gap-1 px-5 py-3">
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <time dateTime={new Date(event.at).toISOString()} className="text-muted tabular-nums">
                {timeFormat.format(event.at)}
              </time>
              <span className={cx('inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold', EVENT_TONE[event.event])}>
                {event.event}
              </span>
              <span className="font-semibold text-ink">{event.queue}</span>
              <span className="min-w-0 font-mono text-xs break-all text-muted">{event.jobId}</span>
            </p>
            {event.failedReason && <p className="font-mono text-xs break-words text-danger">{event.failedReason}</p>}
          </li>
        ))}
      </ol>
    </div>
  );
}
