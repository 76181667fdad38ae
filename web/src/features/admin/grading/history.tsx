import type { GradingApplication } from '#machines/protocol/admin/grading.js';
import { formatDateTime } from '../api.js';
import { EmptyState } from '../states.js';
import { leadCount, scopeWords } from './scope.js';

/**
 * One application as one entry: what was put in force (and, for an undo, what it undid, from
 * `undoOf` alone: the stored note is the coach's), who and when, which leads it re-graded, the note.
 */
function HistoryEntry({ entry }: { entry: GradingApplication }) {
  return (
    <li data-application={entry.id} className="flex flex-col gap-1 border-t border-line/70 py-3 first:border-t-0 first:pt-0">
      <p className="text-ink">
        <span className="tabular-nums text-muted">#{entry.id}</span> <strong className="font-semibold">{entry.version}</strong>
        {entry.undoOf === null ? ' put in force' : ` put back in force (Undo of application ${entry.undoOf})`}
        {' by '}
        {entry.appliedBy ?? 'a removed account'}, <time dateTime={entry.appliedAt.toISOString()}>{formatDateTime(entry.appliedAt)}</time>.
      </p>
      <p className="text-sm text-muted">
        Re-graded {leadCount(entry.regraded)}, {entry.moved.toLocaleString('en-US')} changed tier. Leads: {scopeWords(entry.scope)}.
      </p>
      {entry.note && <p className="text-sm break-words text-ink">Note: {entry.note}</p>}
    </li>
  );
}

/** Every time a rule set was put in force, latest first. */
export function HistoryList({ history }: { history: GradingApplication[] }) {
  if (history.length === 0) {
    return <EmptyState>No rules applied yet: the built-in rules have been in force from the start.</EmptyState>;
  }
  return (
    <ol aria-label="Rules applied, latest first" className="flex flex-col">
      {history.map((entry) => (
        <HistoryEntry key={entry.id} entry={entry} />
      ))}
    </ol>
  );
}
