import type { GradingView } from '#machines/protocol/admin/grading.js';
import { formatDateTime } from '../api.js';
import { NUMBER_FIELDS, SWITCHES, valueAt } from './rules-draft.js';

/** The rules in force in plain words, with when and by whom they were put in force. */
export function RulesInForce({ view }: { view: GradingView }) {
  const { inForce } = view;
  // the latest application is the one that put the rules in force (an undo back to the built-in ones included)
  const latest = view.history[0];
  const by = latest?.appliedBy ?? 'a removed account';
  const since = inForce.appliedAt
    ? `${inForce.builtIn ? 'Put back in force' : 'Applied'} ${formatDateTime(inForce.appliedAt)} by ${by}.`
    : 'In force from the start.';
  const weight = (key: string) => Math.round(valueAt(inForce.rules, key) * 1_000_000) / 10_000;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-ink">
        <strong className="font-semibold" data-testid="version-in-force">
          {inForce.version}
        </strong>
        {inForce.builtIn && <span className="text-muted"> (the built-in rules)</span>}. {since}
      </p>
      <ul className="gap-x-8 text-ink md:columns-2" aria-label="Rules in force">
        {NUMBER_FIELDS.map(({ key, says }) => (
          <li key={key} className="flex break-inside-avoid gap-2 pb-2">
            <span aria-hidden="true" className="text-brass-deep">
              •
            </span>
            {says(key.startsWith('partWeights.') ? weight(key) : valueAt(inForce.rules, key))}
          </li>
        ))}
        {SWITCHES.map(({ key, on, off }) => (
          <li key={key} className="flex break-inside-avoid gap-2 pb-2">
            <span aria-hidden="true" className="text-brass-deep">
              •
            </span>
            {inForce.rules.tierConditions[key] ? on : off}
          </li>
        ))}
      </ul>
    </div>
  );
}
