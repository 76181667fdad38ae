import { useCallback, useEffect, useRef, useState } from 'react';
import { JOB_STATUSES, jobsPageSchema, jobsSummarySchema, type JobStatus } from '#machines/protocol/admin/jobs.js';
import { QUEUE_NAMES, type QueueName } from '#machines/protocol/operations.js';
import { Button, ExternalButtonLink } from '#web/components/ui/index.js';
import { useAdminResource } from '../api.js';
import { JobRow } from './job-row.js';
import { LIVE_EVENTS_KEPT, LiveEvents, type LiveJobEvent } from './live-events.js';
import { QueueCard, numberFormat } from './queue-card.js';
import { RemoveJobDialog } from './remove-dialog.js';
import { Select } from './status-select.js';
import { useJobActions } from './use-job-actions.js';
import { useAdminLive, useCoalesced } from '../live.js';
import { FALLBACK_POLL_MS, LIVE_RELOAD_MS, LiveIndicator, useInterval } from '../ops-live.js';
import { EmptyState, ErrorState, RefreshButton, ScreenHeader, Skeleton } from '../states.js';

/** bull-board, served by the server (server/admin/routes/bull-board.ts), not by this app's router. */
const BULL_BOARD_URL = '/admin/queues';

/**
 * /admin/jobs: counts per queue, the live stream of job events, the job rows with filters, a
 * failed job's error, Retry (one, a queue's or all failed) and Remove, and a link to bull-board.
 */
export function JobsScreen() {
  const [queue, setQueue] = useState<QueueName | ''>('');
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [page, setPage] = useState(1);
  const [events, setEvents] = useState<LiveJobEvent[]>([]);
  const received = useRef(0);

  const query = new URLSearchParams({ ...(queue && { queue }), ...(status && { status }), page: String(page) });
  const summary = useAdminResource('/api/admin/jobs/summary', jobsSummarySchema);
  const list = useAdminResource(`/api/admin/jobs?${query}`, jobsPageSchema);
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
  const { retrying, retryingFailed, removing, setRemoving, removeBusy, retry, retryFailed, remove } = useJobActions(list, tick);
  const failed = summary.failed || list.failed;
  useInterval(tick, FALLBACK_POLL_MS, !live && !failed);
  // what happened while the socket was down is read once it is back
  useEffect(() => {
    if (live) tick();
  }, [live, tick]);

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
