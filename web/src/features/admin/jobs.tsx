import { useCallback, useEffect, useId, useState } from 'react';
import { Button, cx, useToast } from '../../components/ui';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';
import { formatDateTime, useAdminFailure, useAdminResource } from './api';
import { EmptyState, ErrorState, RefreshButton, ScreenHeader, Skeleton } from './states';

/** The queues and statuses of server/queues/names.ts and server/admin/jobs.ts. */
export const QUEUES = ['grading', 'homework', 'mirror', 'email', 'webhooks', 'slack', 'timers'] as const;
export const JOB_STATUSES = ['pending', 'enqueued', 'active', 'completed', 'failed'] as const;
type Queue = (typeof QUEUES)[number];
type JobStatus = (typeof JOB_STATUSES)[number];

/** How often the screen reloads while auto-refresh is on. */
export const REFRESH_MS = 5_000;
export const RETRY_FAILURE = 'Failed to retry the job. Please try again.';

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

/** Calls `tick` every `ms` while `running`; used by the ops screens' auto-refresh. */
export function useInterval(tick: () => void, ms: number, running: boolean) {
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, [tick, ms, running]);
}

/** The auto-refresh toggle: a pressed button, announced politely. */
export function AutoRefreshToggle({ running, onToggle }: { running: boolean; onToggle: () => void }) {
  return (
    <Button variant="ghost" size="sm" aria-pressed={!running} onClick={onToggle}>
      <span aria-hidden="true" className={cx('inline-block size-2 rounded-full', running ? 'animate-pulse bg-success motion-reduce:animate-none' : 'bg-ink/30')} />
      {running ? 'Pause auto-refresh' : 'Resume auto-refresh'}
    </Button>
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
const STATUS_SHORT: Record<JobStatus, string> = { pending: 'pending', enqueued: 'queued', active: 'active', completed: 'done', failed: 'failed' };

function QueueCard({ entry, selected, onSelect }: { entry: JobsSummary['queues'][number]; selected: boolean; onSelect: () => void }) {
  const failed = entry.counts.failed;
  return (
    <li
      data-queue={entry.queue}
      className={cx('flex flex-col gap-3 rounded-3xl border bg-white p-5 shadow-soft', selected ? 'border-ink' : failed > 0 ? 'border-danger/40' : 'border-line')}
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
      <Button variant="secondary" size="sm" onClick={onSelect} aria-pressed={selected}>
        {selected ? 'Showing its jobs' : 'Show its jobs'}
        <span className="sr-only"> ({entry.queue} queue)</span>
      </Button>
    </li>
  );
}

function Select<T extends string>({ label, value, options, onChange }: { label: string; value: T | ''; options: readonly T[]; onChange: (value: T | '') => void }) {
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

function JobRow({ job, retrying, onRetry }: { job: AdminJob; retrying: boolean; onRetry: () => void }) {
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
        </div>
      </div>
      {job.status === 'failed' && job.last_error && (
        <p className="rounded-2xl bg-danger-soft px-3 py-2 font-mono text-xs break-words whitespace-pre-wrap text-danger" data-error>
          {job.last_error}
        </p>
      )}
      <p className="text-xs text-muted">
        Created <time dateTime={job.created_at}>{formatDateTime(job.created_at)}</time>
        {job.finished_at && (
          <>
            {' '}· finished <time dateTime={job.finished_at}>{formatDateTime(job.finished_at)}</time>
          </>
        )}
      </p>
    </li>
  );
}

/** /admin/jobs: counts per queue, the job rows with filters, a failed job's error and a Retry. */
export function JobsScreen() {
  const [queue, setQueue] = useState<Queue | ''>('');
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [page, setPage] = useState(1);
  const [auto, setAuto] = useState(true);
  const [retrying, setRetrying] = useState<string | null>(null);
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
  const failed = summary.failed || list.failed;
  useInterval(tick, REFRESH_MS, auto && !failed);

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

  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;
  const loading = summary.loading || list.loading;

  return (
    <>
      <title>Jobs | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Jobs"
        description="The background work queues: emails, grading, webhooks and timers. A failed job can be run again."
        actions={
          <>
            <AutoRefreshToggle running={auto} onToggle={() => setAuto((on) => !on)} />
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
            <h2 id="queues-heading" className="mb-4 font-serif text-2xl tracking-tight">
              Queues
            </h2>
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

          <section aria-labelledby="jobs-heading">
            <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
              <h2 id="jobs-heading" className="font-serif text-2xl tracking-tight">
                Job history
              </h2>
              <div className="flex flex-wrap gap-3">
                <Select label="Queue" value={queue} options={QUEUES} onChange={(value) => (setQueue(value), setPage(1))} />
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
                    <JobRow key={job.id} job={job} retrying={retrying === job.id} onRetry={() => retry(job)} />
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
    </>
  );
}
