import type { GradingApplication } from '#machines/protocol/admin/grading.js';
import { Field } from '#web/components/ui/index.js';
import { ConfirmDialog } from '../confirm-dialog.js';
import { leadCount, scopeWords } from './scope.js';
import type { Tried } from './use-grading-actions.js';

/** Asks before a rule set is put in force, saying which leads it re-grades (the try's scope and counts); an optional note goes into the history. */
export function ApplyDialog({
  open,
  tried,
  busy,
  note,
  noteError,
  onNote,
  onConfirm,
  onClose,
}: {
  open: boolean;
  tried: Tried | null;
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
      {tried && (
        <p className="mb-3">
          To the <strong className="font-semibold">{leadCount(tried.report.considered)}</strong> the try considered:{' '}
          {scopeWords(tried.scope)}.
        </p>
      )}
      <ul className="flex list-disc flex-col gap-1.5 pl-5">
        {tried && (
          <li>
            New results under these rules, the tier following: {leadCount(tried.report.considered - tried.report.skipped)} with stored
            answers, {tried.report.moved} of them changing tier.
            {tried.report.skipped > 0 && ` Left as they are: ${leadCount(tried.report.skipped)} graded before answers were kept.`}
          </li>
        )}
        <li>Their old results are kept beside the new ones. Leads outside this scope keep the results they have.</li>
        <li>New assessments are graded under these rules from now on.</li>
        <li>You can undo it: Undo last change puts the rules in force now back on these same leads.</li>
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

/** Asks before the last change is undone, naming the version it puts back and the leads it re-grades. */
export function UndoDialog({
  version,
  undone,
  busy,
  onConfirm,
  onClose,
}: {
  version: string | null;
  /** The application an undo undoes: the latest. */
  undone: GradingApplication | undefined;
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
        The rules of <strong>{version}</strong> are put back in force, and new assessments are graded under them.
        {undone && (
          <>
            {' '}
            The {leadCount(undone.regraded)} application {undone.id} re-graded ({scopeWords(undone.scope)}) get a new result under them; the
            current results are kept.
          </>
        )}{' '}
        The undo shows in the history and can itself be undone.
      </p>
    </ConfirmDialog>
  );
}
