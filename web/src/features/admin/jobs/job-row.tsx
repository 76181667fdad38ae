import type { AdminJob, JobStatus } from '#machines/protocol/admin/jobs.js';
import { Button, cx } from '#web/components/ui/index.js';
import { formatDateTime } from '../api.js';

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

/** A quiet red text button: removing is destructive, but each row has one. */
const REMOVE_BUTTON =
  'inline-flex min-h-9 items-center justify-center rounded-full px-4 text-sm font-semibold tracking-tight text-danger transition-colors hover:bg-danger-soft focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass';

/** One job of the history: name, ids, status, attempts, its error, its data and its buttons. */
export function JobRow({
  job,
  retrying,
  onRetry,
  onRemove,
}: {
  job: AdminJob;
  retrying: boolean;
  onRetry: () => void;
  onRemove: () => void;
}) {
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
        Created <time dateTime={job.created_at.toISOString()}>{formatDateTime(job.created_at)}</time>
        {job.finished_at && (
          <>
            {' '}
            · finished <time dateTime={job.finished_at.toISOString()}>{formatDateTime(job.finished_at)}</time>
          </>
        )}
      </p>
    </li>
  );
}
