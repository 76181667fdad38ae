import { JOB_STATUSES, type JobStatus, type JobsSummary } from '#machines/protocol/admin/jobs.js';
import { Button, cx } from '#web/components/ui/index.js';

export const numberFormat = new Intl.NumberFormat('en-US');

/** Short column labels for the queue cards. */
const STATUS_SHORT: Record<JobStatus, string> = {
  pending: 'pending',
  enqueued: 'queued',
  active: 'active',
  completed: 'done',
  failed: 'failed',
};

/** One queue: its rows' counts by status, BullMQ's live counts, and its buttons. */
export function QueueCard({
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
