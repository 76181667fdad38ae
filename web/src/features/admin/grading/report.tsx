import { Link } from 'react-router-dom';
import type { RegradeReport, RegradeScope } from '#machines/protocol/admin/grading.js';
import { cx } from '#web/components/ui/index.js';
import { TIER_LABELS, tierLabel, type Tier } from '../leads/leads-api.js';
import { leadCount, scopeWords } from './scope.js';

const TIERS = Object.keys(TIER_LABELS) as Tier[];
const count = new Intl.NumberFormat('en-US');
function Count({ label, value, explain }: { label: string; value: number; explain?: string }) {
  return (
    <div className="rounded-2xl border border-line bg-paper px-4 py-3">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="font-serif text-3xl tabular-nums text-ink">{count.format(value)}</dd>
      {explain && <dd className="mt-1 text-xs text-muted">{explain}</dd>}
    </div>
  );
}

/** The from → to matrix: current tier by row, the tier under the proposed rules by column. */
function MovesMatrix({ moves }: { moves: RegradeReport['moves'] }) {
  const cell = (from: Tier, to: Tier) => moves.find((move) => move.from === from && move.to === to)?.leads ?? 0;
  return (
    <div
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brass"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container needs a tab stop so the keyboard can scroll it (axe: scrollable-region-focusable)
      tabIndex={0}
      role="group"
      aria-label="Tier moves (scrolls sideways)"
    >
      <table className="w-full max-w-2xl min-w-[18rem] text-sm" data-testid="moves-matrix">
        <caption className="pb-2 text-left text-muted">Leads by current tier (rows) and tier under these rules (columns)</caption>
        <thead>
          <tr>
            <th scope="col" className="px-2 py-2 text-left font-semibold text-muted sm:px-3">
              Now
            </th>
            {TIERS.map((to) => (
              <th key={to} scope="col" className="px-2 py-2 text-right font-semibold whitespace-nowrap sm:px-3">
                <span className="sr-only">Would be</span>{' '}
                <span aria-hidden="true" className="hidden sm:inline">
                  →
                </span>{' '}
                {TIER_LABELS[to]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {TIERS.map((from) => (
            <tr key={from} className="border-t border-line/70">
              <th scope="row" className="px-2 py-2 text-left font-semibold sm:px-3">
                {TIER_LABELS[from]}
              </th>
              {TIERS.map((to) => {
                const n = cell(from, to);
                return (
                  <td
                    key={to}
                    data-move={`${from}-${to}`}
                    className={cx(
                      'px-2 py-2 text-right tabular-nums sm:px-3',
                      from === to ? 'text-muted' : n > 0 ? 'bg-brass-light/40 font-semibold text-ink' : 'text-muted',
                    )}
                  >
                    {count.format(n)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Movers({ report }: { report: RegradeReport }) {
  if (report.moved === 0) return <p className="text-muted">No lead in this scope would change tier under these rules.</p>;
  return (
    <>
      {report.truncated && (
        <p className="mb-2 text-sm text-muted">
          Showing the {count.format(report.leads.length)} largest score changes of the {leadCount(report.moved)} who would move.
        </p>
      )}
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="pb-2 text-left text-muted">Leads who would change tier</caption>
          <thead>
            <tr className="text-xs tracking-wider text-muted uppercase">
              <th scope="col" className="py-2 pr-3 font-semibold">
                Lead
              </th>
              <th scope="col" className="hidden sm:table-cell px-3 py-2 font-semibold">
                Now
              </th>
              <th scope="col" className="hidden sm:table-cell px-3 py-2 font-semibold">
                Would be
              </th>
              <th scope="col" className="hidden sm:table-cell py-2 pl-3 text-right font-semibold">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {report.leads.map((lead) => (
              <tr key={lead.leadId} data-mover={lead.leadId} className="border-t border-line/70">
                <td className="max-w-0 py-2 pr-3 sm:max-w-72">
                  <Link
                    to={`/admin/leads/${lead.leadId}`}
                    className="block truncate font-medium text-ink underline decoration-ink/20 underline-offset-2 hover:decoration-ink"
                  >
                    {lead.name}
                  </Link>
                  <span className="block truncate text-muted">{lead.email}</span>
                  <span className="block sm:hidden">
                    {tierLabel(lead.from)} → <strong className="font-semibold">{tierLabel(lead.to)}</strong>, total {lead.fromTotal} →{' '}
                    {lead.toTotal}
                  </span>
                </td>
                <td className="hidden px-3 py-2 whitespace-nowrap sm:table-cell">{tierLabel(lead.from)}</td>
                <td className="hidden px-3 py-2 font-semibold whitespace-nowrap sm:table-cell">{tierLabel(lead.to)}</td>
                <td className="hidden py-2 pl-3 text-right whitespace-nowrap tabular-nums sm:table-cell">
                  {lead.fromTotal} → {lead.toTotal}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** What changed since a dry run, which makes it no longer the one Apply would follow. */
export type Staleness = 'rules' | 'scope' | null;

const STALE: Record<Exclude<Staleness, null>, string> = {
  rules: 'You changed the rules since this try: press Try on past leads again to see what they would change.',
  scope: 'You changed which leads to try them on since this try: press Try on past leads again to see what they would change there.',
};

/** A dry run's answer: the counts, the tier matrix and the leads who would move; `stale` once the rules or the scope were changed since. */
export function DryRunReport({ report, scope, stale }: { report: RegradeReport; scope: RegradeScope; stale: Staleness }) {
  return (
    <section aria-labelledby="grading-report-heading" className="flex flex-col gap-5">
      <div>
        <h3 id="grading-report-heading" tabIndex={-1} className="font-serif text-xl tracking-tight text-ink focus:outline-none">
          What these rules would change
        </h3>
        <p className="text-sm text-muted">Tried on leads: {scopeWords(scope)}. Nothing was changed.</p>
      </div>
      {stale && (
        <p role="status" className="rounded-2xl border border-brass/50 bg-brass-light/30 px-4 py-3 text-sm text-ink">
          {STALE[stale]}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Count label="Considered" value={report.considered} />
        <Count label="Unchanged" value={report.unchanged} />
        <Count label="Would move" value={report.moved} />
        <Count label="Skipped" value={report.skipped} explain="Graded before answers were kept, so they keep their result." />
      </dl>
      {report.considered === 0 ? (
        <p className="text-muted">No lead in this scope has a result yet.</p>
      ) : (
        <>
          <MovesMatrix moves={report.moves} />
          <Movers report={report} />
        </>
      )}
    </section>
  );
}
