import { Field } from '#web/components/ui/index.js';
import { ConfirmDialog } from '../confirm-dialog.js';

/** Asks before a rule set is put in force, saying what Apply does; an optional note goes into the history. */
export function ApplyDialog({
  open,
  busy,
  note,
  noteError,
  onNote,
  onConfirm,
  onClose,
}: {
  open: boolean;
  busy: boolean;
  note: string;
  noteError?: string;
  onNote: (note: string) => void;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title="Apply these rules?"
      confirmLabel="Apply these rules"
      busyLabel="Applying..."
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <ul className="flex list-disc flex-col gap-1.5 pl-5">
        <li>Every lead with stored answers gets a new result under these rules, and their tier follows it.</li>
        <li>Their old results are kept beside the new ones.</li>
        <li>New assessments are graded under these rules from now on.</li>
        <li>You can undo it: Undo last change puts the rules in force now back the same way.</li>
      </ul>
      <Field
        multiline
        rows={3}
        className="mt-4"
        label="Note for the history"
        optional
        maxLength={500}
        value={note}
        error={noteError}
        onChange={(event) => onNote(event.target.value)}
      />
    </ConfirmDialog>
  );
}

/** Asks before the last change is undone, naming the version it puts back. */
export function UndoDialog({
  version,
  busy,
  onConfirm,
  onClose,
}: {
  version: string | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={version !== null}
      title="Undo the last change?"
      confirmLabel={`Restore ${version ?? ''}`}
      busyLabel="Undoing..."
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>
        The rules of <strong>{version}</strong> are put back in force: every lead with stored answers gets a new result under them (the
        current results are kept), and new assessments are graded under them. The undo shows in the history and can itself be undone.
      </p>
    </ConfirmDialog>
  );
}
