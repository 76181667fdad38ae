import type { OverviewFunnel } from '#machines/protocol/admin/funnel.js';
import { EmptyState } from '../states.js';
import { useWidth } from './use-width.js';

/** The new-leads part of GET /api/admin/overview/funnel: every day or week of the period, zeros included. */
export type LeadBars = OverviewFunnel['leadsPerDay'];

/** Taller where the panel is wide, level with the funnel beside it. */
const chartHeight = (width: number) => (width >= 480 ? 300 : 220);
const TOP = 18;
const BOTTOM = 26;
const LEFT = 32;
/** Room each date label needs under the axis, and about half of the widest label ("Nov 30"). */
const LABEL_WIDTH = 54;
const LABEL_HALF = 20;

// the dates are calendar days already in the admin's time zone: formatted as UTC so they never shift
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDate = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const numberFormat = new Intl.NumberFormat('en-US');

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** The top of the y axis: the largest count rounded up to a round number whose half is whole too. */
function axisTop(largest: number): number {
  if (largest <= 5) return Math.max(1, largest);
  const magnitude = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 3, 4, 5, 6, 8, 10].map((factor) => factor * magnitude).find((top) => top >= largest && top % 2 === 0)!;
}

/** Gridlines: every count up to 5, else the bottom, middle and top. */
function axisTicks(top: number): number[] {
  return top <= 5 ? Array.from({ length: top + 1 }, (_, i) => i) : [0, top / 2, top];
}

function leadsText(count: number): string {
  return `${numberFormat.format(count)} new ${count === 1 ? 'lead' : 'leads'}`;
}

/**
 * New leads per day (or week) of the period as SVG bars, zero days drawn as a stub on the axis.
 * Drawn in pixels at the panel's width, with date labels thinned to fit and the latest always
 * labelled; the visually hidden table lists every bar's date and count.
 */
export function LeadsPerDayChart({ data, periodLabel, timeZone }: { data: LeadBars; periodLabel: string; timeZone: string }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const { bars, bucket } = data;
  const total = bars.reduce((sum, bar) => sum + bar.leads, 0);
  if (total === 0) return <EmptyState>No new leads in this period</EmptyState>;

  const busiest = bars.reduce((most, bar) => (bar.leads > most.leads ? bar : most));
  const top = axisTop(busiest.leads);
  const height = chartHeight(width);
  const plotWidth = Math.max(0, width - LEFT);
  const plotHeight = height - TOP - BOTTOM;
  const slot = plotWidth / bars.length;
  const barWidth = Math.max(1, Math.min(32, slot * 0.7));
  // one label per LABEL_WIDTH, counting the room the latest label may move in by
  const labelEvery = Math.ceil(bars.length / Math.max(1, Math.floor((plotWidth - LABEL_HALF) / LABEL_WIDTH)));
  const y = (count: number) => TOP + plotHeight - (plotHeight * count) / top;
  const dateOf = (day: string) => (bucket === 'day' ? longDate.format(asDate(day)) : `Week of ${longDate.format(asDate(day))}`);
  const busiestWhen = `${bucket === 'day' ? 'on' : 'in the week of'} ${longDate.format(asDate(busiest.start))}`;
  const summary =
    `New leads per ${bucket}, ${periodLabel}, ${shortDate.format(asDate(bars[0]!.start))} to ${shortDate.format(asDate(bars.at(-1)!.start))} ` +
    `(${timeZone} time): ${numberFormat.format(total)} in total, the most ${busiestWhen} (${numberFormat.format(busiest.leads)}).`;

  return (
    <div className="flex flex-col gap-3">
      <div ref={ref} style={{ height }}>
        {width > 0 && (
          <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} className="block font-sans" role="img" aria-label={summary}>
            {axisTicks(top).map((tick) => (
              <g key={tick}>
                <line
                  x1={LEFT}
                  x2={width}
                  y1={y(tick)}
                  y2={y(tick)}
                  className="stroke-line"
                  strokeWidth={1}
                  strokeDasharray={tick === 0 ? undefined : '3 4'}
                />
                <text x={LEFT - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle" className="fill-muted text-[11px] tabular-nums">
                  {numberFormat.format(tick)}
                </text>
              </g>
            ))}
            {bars.map((bar, index) => {
              const center = LEFT + slot * (index + 0.5);
              const labelled = (bars.length - 1 - index) % labelEvery === 0;
              // the outermost labels move in just enough to stay inside the chart
              const labelX = Math.min(Math.max(center, LEFT + LABEL_HALF), width - LABEL_HALF);
              return (
                <g key={bar.start}>
                  <title>{`${dateOf(bar.start)}: ${leadsText(bar.leads)}`}</title>
                  {/* a transparent full-height target, so thin bars still show their tooltip */}
                  <rect x={LEFT + slot * index} y={TOP} width={slot} height={plotHeight} fill="transparent" />
                  {bar.leads > 0 ? (
                    <rect
                      x={center - barWidth / 2}
                      y={y(bar.leads)}
                      width={barWidth}
                      height={y(0) - y(bar.leads)}
                      rx={Math.min(3, barWidth / 3)}
                      className="fill-ink"
                    />
                  ) : (
                    <rect x={center - barWidth / 2} y={y(0) - 2} width={barWidth} height={2} className="fill-mist" />
                  )}
                  {bar.leads > 0 && slot >= 22 && (
                    <text x={center} y={y(bar.leads) - 5} textAnchor="middle" className="fill-ink text-[11px] font-semibold tabular-nums">
                      {bar.leads}
                    </text>
                  )}
                  {labelled && (
                    <text x={labelX} y={height - 8} textAnchor="middle" className="fill-muted text-[11px]">
                      {shortDate.format(asDate(bar.start))}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
        )}
      </div>
      <p className="text-sm text-muted">
        <span className="font-semibold text-ink">{leadsText(total)}</span> · busiest {bucket} {shortDate.format(asDate(busiest.start))} (
        {numberFormat.format(busiest.leads)})
      </p>
      {/* sr-only on a wrapper: a table never shrinks to 1 px and would widen the page */}
      <div className="sr-only">
        <table data-leads-table>
          <caption>
            New leads per {bucket}, {periodLabel}
          </caption>
          <thead>
            <tr>
              <th scope="col">{bucket === 'day' ? 'Day' : 'Week of'}</th>
              <th scope="col">New leads</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.start} data-day={bar.start}>
                <th scope="row">{longDate.format(asDate(bar.start))}</th>
                <td>{bar.leads}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
