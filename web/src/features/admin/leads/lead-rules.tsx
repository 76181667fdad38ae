import type { LeadDetail } from '#machines/protocol/admin/leads.js';
import { SCORE_NAMES } from '#machines/grading/score-names.js';
import { formatDateTime } from '../api.js';
import { Badge } from '../lead-parts.js';
import { tierLabel } from './leads-api.js';

type Result = NonNullable<LeadDetail['result']>;

const points = (value: number | null) => (value === null ? '—' : value > 0 ? `+${value}` : value < 0 ? `−${-value}` : '0');

/** The rules that fired for this result, each with its points on the total: why the lead has its tier. */
export function RulesFired({ rules }: { rules: Result['rulesFired'] }) {
  if (rules.length === 0) return null;
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-muted">Rules that fired</h3>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-line text-muted">
            <th scope="col" className="py-1.5 pr-3 font-semibold">
              Rule
            </th>
            <th scope="col" className="py-1.5 text-right font-semibold">
              Points
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule, i) => (
            <tr key={`${rule.rule}-${i}`} className="border-b border-line/60 align-top last:border-0">
              <td className="py-1.5 pr-3 text-ink">{rule.label}</td>
              <td className="py-1.5 text-right font-mono whitespace-nowrap text-ink">{points(rule.points)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every result the lead has had, latest first; a re-grade by a new rule set adds one and keeps the old; a rushed attempt is shown as such. */
export function ResultHistory({ results }: { results: LeadDetail['results'] }) {
  if (results.length < 2) return null;
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-muted">All results</h3>
      <ul className="space-y-1.5 text-sm">
        {results.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-ink">
            <span>{formatDateTime(r.created_at)}</span>
            {r.rushed ? <Badge tone="bad">rushed: asked to retake</Badge> : <strong>{tierLabel(r.tier)}</strong>}
            <span className="text-muted">
              {SCORE_NAMES.qualification.toLowerCase()} {r.qualification_score}
            </span>
            <span className="font-mono text-xs text-muted">{r.grading_version}</span>
            {r.regraded && <Badge>re-graded</Badge>}
          </li>
        ))}
      </ul>
    </div>
  );
}
