import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { AdminLiveJobEvent, AdminLiveJobFrame } from '#machines/protocol/admin-live.js';
import { QUEUE_NAMES, type QueueName } from '#machines/protocol/operations.js';
import { Button, ExternalButtonLink, cx, useToast } from '../../components/ui/index.js';
import { ApiError, api } from '../../lib/api.js';
import { useSession } from '../../lib/session.js';
import { formatDateTime, useAdminFailure, useAdminResource } from './api.js';
import { useAdminLive, useCoalesced } from './live.js';
import { EmptyState, ErrorState, RefreshButton, ScreenHeader, Skeleton } from './states.js';
import { ConfirmDialog } from './confirm-dialog.js';

/** The job statuses of server/admin/jobs.ts. */
const JOB_STATUSES = ['pending', 'enqueued', 'active', 'completed', 'failed'] as const;
type Queue = QueueName;
type JobStatus = (typeof JOB_STATUSES)[number];

/** How often the ops screens reload while the live socket is down (with it up, its frames drive reloads). */
export const FALLBACK_POLL_MS = 30_000;
/** How soon after a live frame the ops screens reload (a burst of frames makes one reload). */
export const LIVE_RELOAD_MS = 400;
/** Job events the live stream keeps, newest first. */
const LIVE_EVENTS_KEPT = 50;
/** bull-board, served by the server (server/routes/bull-board.ts), not by this app's router. */
const BULL_BOARD_URL = '/admin/queues';
export const RETRY_FAILURE = 'Failed to retry the job. Please try again.';
const RETRY_ALL_FAILURE = 'Failed to retry the failed jobs. Please try again.';
const REMOVE_FAILURE = 'Failed to remove the job. Please try again.';

/** GET /api/admin/jobs/summary (server/admin/jobs.ts jobsSummarySchema). */
export interface JobsSummary {
  redis: 'up' | 'down';
  queues: Array<{
    queue: Queue;
    counts: Record<JobStatus, number>;
    total: number;
    bull: { waiting: number; active: number; delayed: number; failed: number } | null;
  }>;
}

export interface AdminJob {
  id: string;
  queue: Queue;
  name: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  payload: Record<string, unknown>;
  created_at: string;
  finished_at: string | null;
  lead_id: string | null;
  flow_id: string | null;
}

/** GET /api/admin/jobs */
export interface JobsPage {
  jobs: AdminJob[];
  total: number;
  page: number;
  pageSize: number;
}

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

const STATUS_TONE: Record<JobStatus, string> = {
  pending: 'bg-sand text-ink',
  enqueued: 'bg-sand-deep text-ink',
  active: 'bg-brass/25 text-ink',
  completed: 'bg-success/15 text-success',
  failed: 'bg-danger-soft text-danger',
};

function StatusBadge({ status }: { status: JobStatus }) {
  return <span className={cx('inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold', STATUS_TONE[status])}>{status}</span>;
}

const numberFormat = new Intl.NumberFormat('en-US');

/** Short column labels for the queue cards. */
const STATUS_SHORT: Record<JobStatus, string> = {
  pending: 'pending',
  enqueued: 'queued',
  active: 'active',
  completed: 'done',
  failed: 'failed',
};

function QueueCard({
  entry,
  selected,
  onSelect,
  retrying,
  onRetryFailed,
}: {
  entry: JobsSummary['queues'][number];
  selected: boolean;
  onSelect: () => void;
  retrying: boolean;
  onRetryFailed: () => void;
}) {
  const failed = entry.counts.failed;
  return (
    <li
      data-queue={entry.queue}
      className={cx(
        'flex flex-col gap-3 rounded-3xl border bg-white p-5 shadow-soft',
        selected ? 'border-ink' : failed > 0 ? 'border-danger/40' : 'border-line',
      )}
    >
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="font-serif text-xl tracking-tight text-ink">{entry.queue}</h3>
        <span className="text-sm text-muted">{numberFormat.format(entry.total)} total</span>
      </div>
      <dl className="grid grid-cols-5 gap-1 text-center">
        {JOB_STATUSES.map((status) => (
          <div key={status} className="flex flex-col-reverse">
            <dt className="text-[0.7rem] text-muted">{STATUS_SHORT[status]}</dt>
            <dd className={cx('font-serif text-2xl', status === 'failed' && failed > 0 ? 'text-danger' : 'text-ink')} data-count={status}>
              {numberFormat.format(entry.counts[status])}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-muted">
        {entry.bull
          ? `BullMQ: ${entry.bull.waiting} waiting · ${entry.bull.active} active · ${entry.bull.delayed} delayed · ${entry.bull.failed} failed`
          : 'BullMQ: live counts unavailable'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={onSelect} aria-pressed={selected}>
          {selected ? 'Showing its jobs' : 'Show its jobs'}
          <span className="sr-only"> ({entry.queue} queue)</span>
        </Button>
        {failed > 0 && (
          <Button size="sm" onClick={onRetryFailed} loading={retrying} loadingText="Retrying...">
            Retry {numberFormat.format(failed)} failed
            <span className="sr-only"> ({entry.queue} queue)</span>
          </Button>
        )}
      </div>
    </li>
  );
}

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T | '';
  options: readonly T[];
  onChange: (value: T | '') => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as T | '')}
        className="min-h-11 rounded-full border border-line bg-white px-4 text-ink focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass"
      >
        <option value="">All</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A quiet red text button: removing is destructive, but each row has one. */
const REMOVE_BUTTON =
  'inline-flex min-h-9 items-center justify-center rounded-full px-4 text-sm font-semibold tracking-tight text-danger transition-colors hover:bg-danger-soft focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass';

function JobRow({ job, retrying, onRetry, onRemove }: { job: AdminJob; retrying: boolean; onRetry: () => void; onRemove: () => void }) {
  return (
    <li data-job={job.id} className="flex flex-col gap-2 px-5 py-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold break-all text-ink">
            {job.name} <span className="font-normal text-muted">· {job.queue}</span>
          </p>
          <p className="mt-0.5 text-xs break-all text-muted">
            <span className="font-mono">{job.id}</span>
            {job.lead_id && <> · lead {job.lead_id.slice(0, 8)}</>}
            {job.flow_id && <> · flow {job.flow_id.slice(0, 8)}</>}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <StatusBadge status={job.status} />
          <span className="text-sm text-muted" title="attempts / max attempts">
            {job.attempts}/{job.max_attempts}
            <span className="sr-only"> attempts</span>
          </span>
          {job.status === 'failed' && (
            <Button size="sm" onClick={onRetry} loading={retrying} loadingText="Retrying...">
              Retry<span className="sr-only"> job {job.name}</span>
            </Button>
          )}
          {job.status !== 'active' && (
            <button type="button" className={REMOVE_BUTTON} onClick={onRemove}>
              Remove<span className="sr-only"> job {job.name}</span>
            </button>
          )}
        </div>
      </div>
      {job.status === 'failed' && job.last_error && (
        <p className="rounded-2xl bg-danger-soft px-3 py-2 font-mono text-xs break-words whitespace-pre-wrap text-danger" data-error>
          {job.last_error}
        </p>
      )}
      <details className="text-xs">
        <summary className="w-fit cursor-pointer font-semibold text-ink">Job data</summary>
        <pre
          className="mt-2 max-h-64 overflow-auto rounded-2xl bg-sand px-3 py-2 font-mono break-words whitespace-pre-wrap text-ink"
          data-payload
        >
          {JSON.stringify(job.payload, null, 2)}
        </pre>
      </details>
      <p className="text-xs text-muted">
        Created <time dateTime={job.created_at}>{formatDateTime(job.created_at)}</time>
        {job.finished_at && (
          <>
            {' '}
            · finished <time dateTime={job.finished_at}>{formatDateTime(job.finished_at)}</time>
          </>
        )}
      </p>
    </li>
  );
}

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
type LiveJobEvent = AdminLiveJobFrame & { seq: number };

/** The latest job events from the live socket, newest first. */
function LiveEvents({ events, live }: { events: LiveJobEvent[]; live: boolean }) {
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

/** Asks before a job is removed for good. */
function RemoveJobDialog({
  job,
  busy,
  onConfirm,
  onClose,
}: {
  job: AdminJob | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={job !== null}
      title="Remove this job?"
      confirmLabel="Remove job"
      busyLabel="Removing..."
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {job && (
        <p>
          <strong className="break-all">{job.name}</strong> on the {job.queue} queue is taken off the queue and out of the job history. It
          will not run again, and a flow waiting on it will not hear back. This cannot be undone.
        </p>
      )}
    </ConfirmDialog>
  );
}

/**
 * /admin/jobs: counts per queue, the live stream of job events, the job rows with filters, a
 * failed job's error, Retry (one, a queue's or all failed) and Remove, and a link to bull-board.
 */
export function JobsScreen() {
  const [queue, setQueue] = useState<Queue | ''>('');
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [page, setPage] = useState(1);
  const [retrying, setRetrying] = useState<string | null>(null);
  /** The queue whose failed jobs are being retried, or 'all'. */
  const [retryingFailed, setRetryingFailed] = useState<Queue | 'all' | null>(null);
  const [removing, setRemoving] = useState<AdminJob | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [events, setEvents] = useState<LiveJobEvent[]>([]);
  const received = useRef(0);
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();

  const query = new URLSearchParams({ ...(queue && { queue }), ...(status && { status }), page: String(page) });
  const summary = useAdminResource<JobsSummary>('/api/admin/jobs/summary');
  const list = useAdminResource<JobsPage>(`/api/admin/jobs?${query}`);
  const reloadSummary = summary.reload;
  const reloadList = list.reload;
  const tick = useCallback(() => {
    reloadSummary();
    reloadList();
  }, [reloadSummary, reloadList]);
  const tickSoon = useCoalesced(tick, LIVE_RELOAD_MS);
  const { live } = useAdminLive({
    onJob: (frame) => {
      const event = { ...frame, seq: ++received.current };
      setEvents((current) => [event, ...current].slice(0, LIVE_EVENTS_KEPT));
      tickSoon();
    },
  });
  const failed = summary.failed || list.failed;
  useInterval(tick, FALLBACK_POLL_MS, !live && !failed);
  // what happened while the socket was down is read once it is back
  useEffect(() => {
    if (live) tick();
  }, [live, tick]);

  const retry = (job: AdminJob) => {
    setRetrying(job.id);
    api<AdminJob>(`/api/admin/jobs/${job.id}/retry`, { method: 'POST', csrfToken: session.csrfToken }).then(
      (saved) => {
        setRetrying(null);
        list.update((current) => ({ ...current, jobs: current.jobs.map((row) => (row.id === saved.id ? saved : row)) }));
        toast({ title: 'Job retried', description: `${job.name} on the ${job.queue} queue will run again.`, variant: 'success' });
        tick();
      },
      (error: unknown) => {
        setRetrying(null);
        fail(error, RETRY_FAILURE);
        tick();
      },
    );
  };

  const retryFailed = (target: Queue | 'all') => {
    setRetryingFailed(target);
    const body = target === 'all' ? {} : { queue: target };
    api<{ retried: number }>('/api/admin/jobs/retry-failed', { method: 'POST', body, csrfToken: session.csrfToken }).then(
      ({ retried }) => {
        setRetryingFailed(null);
        const where = target === 'all' ? '' : ` on the ${target} queue`;
        toast(
          retried
            ? {
                title: 'Failed jobs retried',
                description: `${numberFormat.format(retried)} failed ${retried === 1 ? 'job' : 'jobs'}${where} will run again.`,
                variant: 'success',
              }
            : { title: 'Nothing to retry', description: `No failed jobs${where}.` },
        );
        tick();
      },
      (error: unknown) => {
        setRetryingFailed(null);
        fail(error, RETRY_ALL_FAILURE);
        tick();
      },
    );
  };

  const remove = () => {
    if (!removing) return;
    const job = removing;
    setRemoveBusy(true);
    api<AdminJob>(`/api/admin/jobs/${job.id}`, { method: 'DELETE', csrfToken: session.csrfToken }).then(
      () => {
        setRemoveBusy(false);
        setRemoving(null);
        list.update((current) => ({ ...current, jobs: current.jobs.filter((row) => row.id !== job.id), total: current.total - 1 }));
        toast({ title: 'Job removed', description: `${job.name} on the ${job.queue} queue was removed.`, variant: 'success' });
        tick();
      },
      (error: unknown) => {
        setRemoveBusy(false);
        setRemoving(null);
        // a running job's 409 explains itself
        fail(error, error instanceof ApiError && error.status === 409 ? error.message : REMOVE_FAILURE);
        tick();
      },
    );
  };

  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;
  const loading = summary.loading || list.loading;
  const failedTotal = summary.data?.queues.reduce((sum, entry) => sum + entry.counts.failed, 0) ?? 0;

  return (
    <>
      <title>Jobs | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Jobs"
        description="The background work queues: emails, grading, webhooks and timers, as they run. A failed job can be run again; a job that should not run can be removed."
        actions={
          <>
            <LiveIndicator live={live} />
            <RefreshButton loading={loading} onClick={tick} />
          </>
        }
      />
      {summary.data?.redis === 'down' && (
        <p role="status" className="mb-6 rounded-2xl border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
          Redis is not answering: the counts below come from the database only.
        </p>
      )}
      {failed && !(summary.data && list.data) ? (
        <ErrorState onRetry={tick} />
      ) : (
        <>
          <section aria-labelledby="queues-heading" className="mb-10">
            <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
              <h2 id="queues-heading" className="font-serif text-2xl tracking-tight">
                Queues
              </h2>
              <div className="flex flex-wrap gap-2">
                <Button
                  size="sm"
                  onClick={() => retryFailed('all')}
                  disabled={failedTotal === 0}
                  loading={retryingFailed === 'all'}
                  loadingText="Retrying..."
                >
                  Retry all failed{failedTotal > 0 && ` (${numberFormat.format(failedTotal)})`}
                </Button>
                <ExternalButtonLink href={BULL_BOARD_URL} variant="secondary" size="sm">
                  Open bull-board
                </ExternalButtonLink>
              </div>
            </div>
            {summary.data ? (
              <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4">
                {summary.data.queues.map((entry) => (
                  <QueueCard
                    key={entry.queue}
                    entry={entry}
                    selected={queue === entry.queue}
                    onSelect={() => {
                      setQueue(queue === entry.queue ? '' : entry.queue);
                      setPage(1);
                    }}
                    retrying={retryingFailed === entry.queue}
                    onRetryFailed={() => retryFailed(entry.queue)}
                  />
                ))}
              </ul>
            ) : (
              <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4" aria-busy="true">
                {[0, 1, 2, 3].map((n) => (
                  <Skeleton key={n} className="h-44 rounded-3xl" />
                ))}
              </div>
            )}
          </section>

          <section aria-labelledby="live-heading" className="mb-10">
            <div className="mb-4 flex flex-wrap items-baseline justify-between gap-3">
              <h2 id="live-heading" className="font-serif text-2xl tracking-tight">
                Live events
              </h2>
              <p className="text-sm text-muted">The latest {LIVE_EVENTS_KEPT} job events, newest first</p>
            </div>
            <div className="rounded-3xl border border-line bg-white shadow-soft">
              <LiveEvents events={events} live={live} />
            </div>
          </section>

          <section aria-labelledby="jobs-heading">
            <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
              <h2 id="jobs-heading" className="font-serif text-2xl tracking-tight">
                Job history
              </h2>
              <div className="flex flex-wrap gap-3">
                <Select label="Queue" value={queue} options={QUEUE_NAMES} onChange={(value) => (setQueue(value), setPage(1))} />
                <Select label="Status" value={status} options={JOB_STATUSES} onChange={(value) => (setStatus(value), setPage(1))} />
              </div>
            </div>
            <div className="rounded-3xl border border-line bg-white shadow-soft">
              {!list.data ? (
                <div className="flex flex-col gap-3 p-6" aria-busy="true">
                  <Skeleton className="h-5 w-full" />
                  <Skeleton className="h-5 w-5/6" />
                  <Skeleton className="h-5 w-2/3" />
                </div>
              ) : list.data.jobs.length === 0 ? (
                <EmptyState>{queue || status ? 'No jobs match these filters' : 'No jobs have run yet'}</EmptyState>
              ) : (
                <ul className="divide-y divide-line/70" aria-label="Jobs">
                  {list.data.jobs.map((job) => (
                    <JobRow
                      key={job.id}
                      job={job}
                      retrying={retrying === job.id}
                      onRetry={() => retry(job)}
                      onRemove={() => setRemoving(job)}
                    />
                  ))}
                </ul>
              )}
            </div>
            {list.data && list.data.total > 0 && (
              <nav aria-label="Job pages" className="mt-4 flex items-center justify-between gap-3 text-sm text-muted">
                <p>
                  Page {list.data.page} of {pages} · {numberFormat.format(list.data.total)} {list.data.total === 1 ? 'job' : 'jobs'}
                </p>
                <div className="flex gap-2">
                  <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage((n) => Math.max(1, n - 1))}>
                    Previous
                  </Button>
                  <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage((n) => n + 1)}>
                    Next
                  </Button>
                </div>
              </nav>
            )}
          </section>
        </>
      )}
      <RemoveJobDialog job={removing} busy={removeBusy} onConfirm={remove} onClose={() => setRemoving(null)} />
    </>
  );
}
