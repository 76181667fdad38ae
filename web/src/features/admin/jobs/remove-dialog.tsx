import type { AdminJob } from '#machines/protocol/admin/jobs.js';
import { ConfirmDialog } from '../confirm-dialog.js';

/** Asks before a job is removed for good. */
export function RemoveJobDialog({
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
