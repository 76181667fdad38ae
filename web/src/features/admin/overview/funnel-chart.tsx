import type { OverviewFunnel } from '#machines/protocol/admin/funnel.js';
import type { Tier } from '#machines/protocol/common.js';
import { TIER_LABELS } from '../leads/leads-api.js';
import { EmptyState } from '../states.js';
import { useWidth } from './use-width.js';

/** The funnel of GET /api/admin/overview/funnel. */
export type FunnelSteps = OverviewFunnel['funnel'];

interface Step {
  key: string;
  label: string;
  count: number;
  /** What the step's percentage is of; the first step has none. */
  of?: { label: string; count: number };
  /** Tier rows sit indented under the survey. */
  indent?: boolean;
  fill: string;
}

const TIER_FILLS: Record<Tier, string> = { book_call: 'fill-brass-deep', homework: 'fill-brass', nurture: 'fill-ink-700' };

function stepsOf(funnel: FunnelSteps): Step[] {
  const surveyed = { label: 'surveyed', count: funnel.surveyDone };
  const tiers = (Object.keys(TIER_LABELS) as Tier[]).map((tier): Step => ({
    key: tier,
    label: TIER_LABELS[tier],
    count: funnel.tiers[tier],
    of: surveyed,
    indent: true,
    fill: TIER_FILLS[tier],
  }));
  return [
    { key: 'visits', label: 'Visits', count: funnel.visits, fill: 'fill-ink' },
    { key: 'captured', label: 'Leads captured', count: funnel.captured, of: { label: 'visits', count: funnel.visits }, fill: 'fill-ink' },
    {
      key: 'diagnosticDone',
      label: 'Diagnostic done',
      count: funnel.diagnosticDone,
      of: { label: 'captured', count: funnel.captured },
      fill: 'fill-ink',
    },
    {
      key: 'surveyDone',
      label: 'Survey done',
      count: funnel.surveyDone,
      of: { label: 'diagnostic done', count: funnel.diagnosticDone },
      fill: 'fill-ink',
    },
    ...tiers,
    // only when some are waiting: grading in progress, or a retake asked for
    ...(funnel.ungraded > 0
      ? [{ key: 'ungraded', label: 'Not graded yet', count: funnel.ungraded, of: surveyed, indent: true, fill: 'fill-mist' }]
      : []),
    // both paid paths: the book-call deposit and paid homework
    {
      key: 'depositsPaid',
      label: 'Paid',
      count: funnel.depositsPaid,
      of: { label: 'book call and homework', count: funnel.tiers.book_call + funnel.tiers.homework },
      fill: 'fill-success',
    },
    // booked as the scheduling provider reported it (a cancellation not rebooked does not count)
    {
      key: 'sessionsBooked',
      label: 'Session booked',
      count: funnel.sessionsBooked,
      of: { label: 'paid', count: funnel.depositsPaid },
      indent: true,
      fill: 'fill-success',
    },
  ];
}

const numberFormat = new Intl.NumberFormat('en-US');
const moneyFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** The step's share of what it is measured against; a dash when that is zero. */
function share(step: Step): string {
  return step.of && step.of.count > 0 ? percentFormat.format(step.count / step.of.count) : '—';
}

function describe(step: Step): string {
  return `${step.label} ${numberFormat.format(step.count)}${step.of ? ` (${share(step)} of ${step.of.label})` : ''}`;
}

const ROW = 44;
const BAR_Y = 21;
const BAR_H = 10;
const INDENT = 16;

/** Where an indented row's connector starts: the elbow of the row above, or just under the survey's bar. */
function connectorTop(above: Step | undefined): number {
  return above?.indent ? BAR_Y + BAR_H / 2 - ROW : BAR_Y + BAR_H + 3 - ROW;
}

/**
 * The funnel as horizontal bars, visits at the top down to payments, then the revenue; each bar as long as its
 * share of the largest step, with its count and its share of the step it follows. Drawn in pixels at the panel's width; the
 * visually hidden table carries the same numbers for assistive technology.
 */
export function FunnelChart({ funnel, periodLabel }: { funnel: FunnelSteps; periodLabel: string }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const steps = stepsOf(funnel);
  const widest = Math.max(...steps.map((step) => step.count));
  if (widest === 0) return <EmptyState>No visits or leads in this period</EmptyState>;
  const height = steps.length * ROW - (ROW - BAR_Y - BAR_H);
  return (
    <div className="flex flex-col gap-3">
      <div ref={ref} style={{ height }}>
        {width > 0 && (
          <svg
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            className="block font-sans"
            role="img"
            aria-label={`Funnel, ${periodLabel}: ${steps.map(describe).join(', ')}.`}
          >
            {steps.map((step, index) => {
              const x = step.indent ? INDENT : 0;
              const track = width - x;
              const bar = step.count > 0 ? Math.max(3, (track * step.count) / widest) : 0;
              return (
                <g key={step.key} transform={`translate(0,${index * ROW})`}>
                  <title>{describe(step)}</title>
                  {step.indent && (
                    <path
                      d={`M5,${connectorTop(steps[index - 1])} V${BAR_Y + BAR_H / 2} H${INDENT - 4}`}
                      fill="none"
                      className="stroke-line"
                      strokeWidth={1.5}
                    />
                  )}
                  <text x={x} y={14} className="fill-ink text-[13px] font-semibold">
                    {step.label}
                  </text>
                  <text x={width} y={14} textAnchor="end" className="fill-ink text-[13px] tabular-nums">
                    <tspan className="font-bold">{numberFormat.format(step.count)}</tspan>
                    {step.of && (
                      <tspan dx={8} className="fill-muted">
                        {share(step)}
                      </tspan>
                    )}
                  </text>
                  <rect x={x} y={BAR_Y} width={track} height={BAR_H} rx={BAR_H / 2} className="fill-sand" />
                  {bar > 0 && <rect x={x} y={BAR_Y} width={bar} height={BAR_H} rx={BAR_H / 2} className={step.fill} />}
                </g>
              );
            })}
          </svg>
        )}
      </div>
      <p className="text-sm text-ink" data-revenue>
        <span className="font-semibold">Revenue {moneyFormat.format(funnel.revenueCents / 100)}</span>{' '}
        <span className="text-muted">from these leads' deposits and paid homework, refunds deducted</span>
      </p>
      <p className="text-xs text-muted">
        Percentages: of the step above; tiers of the surveyed; payments of the book-call and homework leads.
      </p>
      {/* sr-only on a wrapper: a table never shrinks to 1 px and would widen the page */}
      <div className="sr-only">
        <table data-funnel-table>
          <caption>Funnel, {periodLabel}</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Count</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((step) => (
              <tr key={step.key} data-step={step.key}>
                <th scope="row">{step.label}</th>
                <td>{numberFormat.format(step.count)}</td>
                <td>{step.of ? `${share(step)} of ${step.of.label}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
