import { useState } from 'react';
import { Link } from 'react-router-dom';
import { needsAttentionSchema } from '#machines/protocol/admin/attention.js';
import { overviewDropoffSchema } from '#machines/protocol/admin/dropoff.js';
import { overviewFunnelSchema, type OverviewFunnel } from '#machines/protocol/admin/funnel.js';
import { adminOverviewSchema, type AdminOverview } from '#machines/protocol/admin/overview.js';
import { siteSettingsViewSchema } from '#machines/protocol/admin/site-settings.js';
import { formatDate, preview, useAdminResource, type AdminResource } from '../api.js';
import { NoBookingPageNotice, SITE_SETTINGS_PATH } from '../booking-notice.js';
import { PlaceholderLinksNotice } from './placeholder-links-notice.js';
import { DropoffSection } from './dropoff.js';
import { FunnelChart } from './funnel-chart.js';
import { IncludeTestSwitch, TIME_ZONE, useIncludeTest } from '../lead-scope.js';
import { LeadsPerDayChart } from './leads-per-day-chart.js';
import { NeedsAttentionPanel } from './needs-attention.js';
import { EmptyState, ErrorState, Panel, RefreshButton, ScreenHeader, Skeleton } from '../states.js';
import { useAdminLive, useCoalesced } from '../live.js';

const PERIODS = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'all', label: 'All time' },
] as const;

type Period = (typeof PERIODS)[number]['value'];

/** A list showing exactly what a counter counts: the same days, time zone and test switch. */
function scopedLink(path: string, overview: AdminOverview): string {
  const params = new URLSearchParams();
  if (overview.period !== 'all') params.set('from', overview.from);
  if (overview.includeTest) params.set('includeTest', 'true');
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** The five counters; where a screen lists what a counter counts, the counter links to it. */
const COUNTERS: Array<{ key: keyof AdminOverview['counts']; label: string; to?: string | ((overview: AdminOverview) => string) }> = [
  { key: 'totalLeads', label: 'Total Leads', to: (overview) => scopedLink('/admin/leads', overview) },
  { key: 'diagnosticsCompleted', label: 'Diagnostics Completed' },
  { key: 'mirrorSessions', label: 'Mirror Sessions', to: (overview) => scopedLink('/admin/mirror-sessions', overview) },
  { key: 'surveyResponses', label: 'Survey Responses' },
  { key: 'contactMessages', label: 'Contact Messages', to: '/admin/messages' },
];

const numberFormat = new Intl.NumberFormat('en-US');

function Counters({ overview }: { overview: AdminOverview | null }) {
  const counts = overview?.counts ?? null;
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-5">
      {COUNTERS.map(({ key, label, to }, index) => {
        const href = typeof to === 'function' ? overview && to(overview) : to;
        return (
          <div
            key={key}
            data-counter={key}
            className={`relative flex flex-col-reverse justify-between gap-2 rounded-3xl border p-5 shadow-soft ${index === 0 ? 'col-span-2 border-ink bg-ink text-white lg:col-span-1' : 'border-line bg-white'}`}
          >
            <dt className={`text-sm font-medium ${index === 0 ? 'text-mist' : 'text-muted'}`}>
              {href ? (
                // the whole card is the link's target; the label is its name
                <Link
                  to={href}
                  className="underline-offset-2 after:absolute after:inset-0 after:rounded-3xl hover:underline focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-brass"
                >
                  {label}
                </Link>
              ) : (
                label
              )}
            </dt>
            <dd className={`font-serif text-4xl tracking-tight ${index === 0 ? 'text-brass-light' : 'text-ink'}`}>
              {counts ? numberFormat.format(counts[key]) : <Skeleton className="h-10 w-16" />}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function RecentLeads({ overview }: { overview: AdminOverview }) {
  const { recentLeads, counts } = overview;
  return (
    <Panel
      title="Recent Leads"
      id="recent-leads"
      footer={recentLeads.length > 0 ? `Showing ${recentLeads.length} of ${counts.totalLeads} total leads` : undefined}
    >
      {recentLeads.length === 0 ? (
        <EmptyState>No leads captured yet</EmptyState>
      ) : (
        <div className="-mx-2">
          <table className="w-full table-fixed text-left text-sm">
            <thead>
              <tr className="text-xs tracking-wider text-muted uppercase">
                <th scope="col" className="px-2 py-2 font-semibold">
                  Email
                </th>
                <th scope="col" className="hidden w-28 px-2 py-2 font-semibold sm:table-cell">
                  Source
                </th>
                <th scope="col" className="w-28 px-2 py-2 text-right font-semibold">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {recentLeads.map((lead) => (
                <tr key={lead.id} className="border-t border-line/70">
                  <td className="px-2 py-3" title={lead.email}>
                    <span className="block truncate font-medium text-ink">{lead.email}</span>
                    <span className="mt-1 block text-xs text-muted sm:hidden">{lead.source}</span>
                  </td>
                  <td className="hidden px-2 py-3 sm:table-cell">
                    <span className="inline-block max-w-full truncate rounded-full bg-sand px-2.5 py-0.5 align-middle text-xs font-medium text-ink">
                      {lead.source}
                    </span>
                  </td>
                  <td className="px-2 py-3 text-right whitespace-nowrap text-muted">
                    <time dateTime={lead.created_at.toISOString()}>{formatDate(lead.created_at)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

function RecentMessages({ overview }: { overview: AdminOverview }) {
  const { recentMessages } = overview;
  return (
    <Panel title="Recent Messages" id="recent-messages">
      {recentMessages.length === 0 ? (
        <EmptyState>No messages received yet</EmptyState>
      ) : (
        <ul className="divide-y divide-line/70">
          {recentMessages.map((message) => (
            <li key={message.id} className="py-3 first:pt-0 last:pb-0" data-message={message.id}>
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <p className="font-semibold text-ink">{message.name}</p>
                <time dateTime={message.created_at.toISOString()} className="text-xs text-muted">
                  {formatDate(message.created_at)}
                </time>
              </div>
              <p className="text-sm text-muted">
                {message.email}
                {message.company && <> · {message.company}</>}
              </p>
              <p className="mt-1.5 text-sm leading-relaxed break-words text-ink">{preview(message.message)}</p>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function PanelSkeleton({ title, id }: { title: string; id: string }) {
  return (
    <Panel title={title} id={id}>
      <div className="flex flex-col gap-3 py-2" aria-busy="true">
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-5 w-5/6" />
        <Skeleton className="h-5 w-2/3" />
      </div>
    </Panel>
  );
}

function PeriodPicker({ value, onChange }: { value: Period; onChange: (period: Period) => void }) {
  return (
    <fieldset className="flex rounded-full border border-line bg-white p-1 shadow-soft">
      <legend className="sr-only">Period</legend>
      {PERIODS.map((period) => (
        <label key={period.value} className="cursor-pointer">
          <input
            type="radio"
            name="overview-period"
            value={period.value}
            checked={value === period.value}
            onChange={() => onChange(period.value)}
            className="peer sr-only"
          />
          <span className="block rounded-full px-3.5 py-1.5 text-sm font-medium whitespace-nowrap text-muted transition-colors peer-checked:bg-ink peer-checked:text-white peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brass-deep hover:text-ink peer-checked:hover:text-white">
            {period.label}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * What every number on the screen covers: the period and whether test leads count. One bar for the
 * whole screen, so the counters, the funnel, the drop-off and the lists always agree.
 */
function ScopeBar({
  period,
  onPeriod,
  includeTest,
  onIncludeTest,
}: {
  period: Period;
  onPeriod: (period: Period) => void;
  includeTest: boolean;
  onIncludeTest: (include: boolean) => void;
}) {
  return (
    <section aria-label="What the numbers cover" className="flex flex-wrap items-center justify-between gap-3">
      <p className="max-w-2xl text-sm text-muted">
        Leads captured in the period, followed through each step{includeTest ? ', test leads and test payments included' : ''}. Days are in{' '}
        {TIME_ZONE} time.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <IncludeTestSwitch checked={includeTest} onChange={onIncludeTest} />
        <PeriodPicker value={period} onChange={onPeriod} />
      </div>
    </section>
  );
}

/** The funnel and new-leads charts for the chosen scope: loading, empty and error states of their own. */
function FunnelSection({ period, funnel }: { period: Period; funnel: AdminResource<OverviewFunnel> }) {
  const { data, failed, reload } = funnel;
  const periodLabel = PERIODS.find((p) => p.value === (data?.period ?? period))!.label.toLowerCase();
  const leadsTitle = data?.leadsPerDay.bucket === 'week' ? 'New leads per week' : 'New leads per day';
  return (
    <section aria-label="Funnel and new leads" className="flex flex-col gap-4" data-period={data?.period}>
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          {data ? (
            <Panel title="Funnel" id="funnel">
              <FunnelChart funnel={data.funnel} periodLabel={periodLabel} />
            </Panel>
          ) : (
            <PanelSkeleton title="Funnel" id="funnel" />
          )}
          {data ? (
            <Panel title={leadsTitle} id="leads-per-day">
              <LeadsPerDayChart data={data.leadsPerDay} periodLabel={periodLabel} timeZone={data.timeZone} />
            </Panel>
          ) : (
            <PanelSkeleton title={leadsTitle} id="leads-per-day" />
          )}
        </div>
      )}
    </section>
  );
}

/** How long after a flow event the overview reloads: its queries count whole tables, so bursts are gathered. */
const LIVE_RELOAD_MS = 1_000;

/**
 * /admin: for one scope (a period and the test switch), the five counters, the funnel and drop-off,
 * new leads per day, and the latest leads and messages; what needs attention; all live; a warning
 * while no booking page is set, and one while social or community links point at a platform's home page.
 */
export function OverviewScreen() {
  const [period, setPeriod] = useState<Period>('30d');
  const [includeTest, setIncludeTest] = useIncludeTest();
  const scope = `period=${period}&tz=${encodeURIComponent(TIME_ZONE)}&includeTest=${includeTest}`;
  const { data, loading, failed, reload } = useAdminResource(`/api/admin/overview?${scope}`, adminOverviewSchema);
  const funnel = useAdminResource(`/api/admin/overview/funnel?${scope}`, overviewFunnelSchema);
  const dropoff = useAdminResource(`/api/admin/overview/dropoff?${scope}`, overviewDropoffSchema);
  const attention = useAdminResource(`/api/admin/overview/attention?includeTest=${includeTest}`, needsAttentionSchema);
  // for the warning while no booking page is set
  const site = useAdminResource(SITE_SETTINGS_PATH, siteSettingsViewSchema);
  const refresh = () => {
    reload();
    funnel.reload();
    dropoff.reload();
    attention.reload();
    site.reload();
  };
  // counters and charts follow the flows as they move (a burst of events makes one reload)
  const refreshSoon = useCoalesced(refresh, LIVE_RELOAD_MS);
  useAdminLive({ onFlow: refreshSoon });
  return (
    <>
      <title>Overview | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Overview"
        description="Your funnel at a glance."
        actions={<RefreshButton loading={loading || funnel.loading} onClick={refresh} />}
      />
      {site.data && !site.data.booking.url && <NoBookingPageNotice fallbackUrl={site.data.booking.fallbackUrl} className="mb-6" />}
      {site.data && <PlaceholderLinksNotice settings={site.data.settings} className="mb-6" />}
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : (
        <div className="flex flex-col gap-6" aria-busy={loading || funnel.loading}>
          <ScopeBar period={period} onPeriod={setPeriod} includeTest={includeTest} onIncludeTest={setIncludeTest} />
          <section aria-label="Counters">
            <Counters overview={data} />
          </section>
          {attention.data?.items.length !== 0 && <NeedsAttentionPanel resource={attention} />}
          <FunnelSection period={period} funnel={funnel} />
          <DropoffSection resource={dropoff} />
          <div className="grid gap-6 lg:grid-cols-2">
            {data ? <RecentLeads overview={data} /> : <PanelSkeleton title="Recent Leads" id="recent-leads" />}
            {data ? <RecentMessages overview={data} /> : <PanelSkeleton title="Recent Messages" id="recent-messages" />}
          </div>
        </div>
      )}
    </>
  );
}
