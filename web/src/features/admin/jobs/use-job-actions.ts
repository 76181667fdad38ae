import { useState } from 'react';
import type { QueueName } from '#machines/protocol/operations.js';
import { adminJobSchema, retryFailedResultSchema, type AdminJob, type JobsPage } from '#machines/protocol/admin/jobs.js';
import { useToast } from '#web/components/ui/index.js';
import { ApiError, api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { useAdminFailure, type AdminResource } from '../api.js';
import { numberFormat } from './queue-card.js';

export const RETRY_FAILURE = 'Failed to retry the job. Please try again.';
const RETRY_ALL_FAILURE = 'Failed to retry the failed jobs. Please try again.';
const REMOVE_FAILURE = 'Failed to remove the job. Please try again.';

/**
 * The jobs screen's buttons: Retry one job, Retry a queue's (or every) failed jobs, Remove a job
 * once confirmed. Each updates the list it can, toasts, and reloads the screen (`tick`).
 */
export function useJobActions(list: AdminResource<JobsPage>, tick: () => void) {
  const [retrying, setRetrying] = useState<string | null>(null);
  /** The queue whose failed jobs are being retried, or 'all'. */
  const [retryingFailed, setRetryingFailed] = useState<QueueName | 'all' | null>(null);
  const [removing, setRemoving] = useState<AdminJob | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();

  const retry = (job: AdminJob) => {
    setRetrying(job.id);
    api(`/api/admin/jobs/${job.id}/retry`, { method: 'POST', csrfToken: session.csrfToken, schema: adminJobSchema }).then(
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

  const retryFailed = (target: QueueName | 'all') => {
    setRetryingFailed(target);
    const body = target === 'all' ? {} : { queue: target };
    api('/api/admin/jobs/retry-failed', { method: 'POST', body, csrfToken: session.csrfToken, schema: retryFailedResultSchema }).then(
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
    api(`/api/admin/jobs/${job.id}`, { method: 'DELETE', csrfToken: session.csrfToken, schema: adminJobSchema }).then(
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

  return { retrying, retryingFailed, removing, setRemoving, removeBusy, retry, retryFailed, remove };
}
