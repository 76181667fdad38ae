import type { GradingView } from '#machines/protocol/admin/grading.js';
import { formatDateTime } from '../api.js';
import { EmptyState } from '../states.js';

const count = new Intl.NumberFormat('en-US');

/** Every time a rule set was put in force, latest first. */
export function HistoryTable({ history }: { history: GradingView['history'] }) {
  if (history.length === 0) {
    return <EmptyState>No rules applied yet: the built-in rules have been in force from the start.</EmptyState>;
  }
  return (
    <div
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brass"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container needs a tab stop so the keyboard can scroll it (axe: scrollable-region-focusable)
      tabIndex={0}
      role="group"
      aria-label="History of the rules applied (scrolls sideways)"
    >
      <table className="w-full min-w-[52rem] text-left text-sm">
        <caption className="sr-only">Rules applied, latest first</caption>
        <thead>
          <tr className="text-xs tracking-wider text-muted uppercase">
            <th scope="col" className="py-2 pr-3 font-semibold">
              #
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Version
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              When
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              By
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Note
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Re-graded
            </th>
            <th scope="col" className="py-2 pl-3 text-right font-semibold">
              Moved
            </th>
          </tr>
        </thead>
        <tbody>
          {history.map((entry) => (
            <tr key={entry.id} data-application={entry.id} className="border-t border-line/70 align-top">
              <td className="py-2 pr-3 tabular-nums text-muted">{entry.id}</td>
              <td className="px-3 py-2 font-medium whitespace-nowrap">{entry.version}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                <time dateTime={entry.appliedAt.toISOString()}>{formatDateTime(entry.appliedAt)}</time>
              </td>
              <td className="max-w-48 truncate px-3 py-2">{entry.appliedBy ?? 'A removed account'}</td>
              <td className="max-w-72 min-w-48 px-3 py-2 break-words">
                {entry.undoOf !== null && (
                  <span className="mr-2 inline-block rounded-full bg-sand px-2.5 py-0.5 text-xs font-medium text-ink">
                    Undo of #{entry.undoOf}
                  </span>
                )}
                {entry.note ?? <span className="text-muted">—</span>}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{count.format(entry.regraded)}</td>
              <td className="py-2 pl-3 text-right tabular-nums">{count.format(entry.moved)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
