import { useId, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonClasses, cx } from '#web/components/ui/index.js';
import type { LeadFacts } from '#machines/protocol/admin/lead-facts.js';
import { formatDate, useAdminResource } from '../api.js';
import { SearchIcon } from '../icons.js';
import { leadPageSchema } from '#machines/protocol/admin/leads.js';
import { SCORE_NAMES } from '#machines/grading/score-names.js';
import { IncludeTestSwitch, TIME_ZONE, useIncludeTest } from '../lead-scope.js';
import { apiQuery, LEADS_PAGE_SIZE, TIER_LABELS, tierLabel, type Tier } from './leads-api.js';
import { FilterField, SortHeader, inputClass, useDebouncedParam, type SortKey } from './table-parts.js';
import { EmptyState, ErrorState, RefreshButton, ScreenHeader, Skeleton } from '../states.js';

/** Payment and session in a word or two: what the coach scans the table for. */
function paidText(lead: LeadFacts): string {
  if (lead.deposit === 'refunded') return lead.booking === 'booked' ? 'Refunded, still booked' : 'Refunded';
  if (lead.deposit === 'paid') return lead.booking === 'booked' ? 'Deposit, booked' : 'Deposit';
  return lead.homework_paid ? 'Homework' : '—';
}

/** /admin/leads: the server-paginated lead table with search, filters, sorting and CSV export. */
export function LeadsScreen() {
  const [params, setParams] = useSearchParams();
  const query = apiQuery(params, true, TIME_ZONE);
  const [includeTest, setIncludeTest] = useIncludeTest();
  const { data, loading, failed, reload } = useAdminResource(`/api/admin/leads?${query}`, leadPageSchema);
  const ids = { q: useId(), source: useId(), tier: useId(), tag: useId(), from: useId(), to: useId() };

  // Every change starts from the latest address, including changes not yet rendered: a debounced
  // text filter firing after a quick select must not write back the address it saw when typed.
  const latest = useRef({ rendered: params, pending: params });
  const update = (change: (next: URLSearchParams) => void, replace: boolean) => {
    const base = latest.current.rendered === params ? latest.current.pending : params;
    const next = new URLSearchParams(base);
    change(next);
    latest.current = { rendered: params, pending: next };
    setParams(next, { replace });
  };
  const setParam = (key: string, value: string) =>
    update((next) => {
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'page') next.delete('page');
    }, true);
  const [q, setQ] = useDebouncedParam('q', params, setParam);
  const [source, setSource] = useDebouncedParam('source', params, setParam);
  const [tag, setTag] = useDebouncedParam('tag', params, setParam);

  const sort = (
    ['email', 'leadership_score', 'qualification_score', 'created_at'].includes(params.get('sort') ?? '')
      ? params.get('sort')
      : 'created_at'
  ) as SortKey;
  const dir = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const onSort = (column: SortKey) =>
    update((next) => {
      const nextDir = sort === column ? (dir === 'asc' ? 'desc' : 'asc') : column === 'email' ? 'asc' : 'desc';
      next.set('sort', column);
      next.set('dir', nextDir);
      next.delete('page');
    }, false);

  const page = data?.page ?? 1;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const filtered = ['q', 'source', 'tier', 'tag', 'from', 'to'].some((key) => params.get(key));
  const csvHref = `/api/admin/leads.csv?${apiQuery(params, false, TIME_ZONE)}`;

  return (
    <>
      <title>Leads | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Leads"
        description={
          data
            ? `${data.total} ${data.total === 1 ? 'lead' : 'leads'}${filtered ? ' match the filters' : ' in total'}${includeTest ? ', test leads included' : ''}. Days are in ${TIME_ZONE} time.`
            : 'Everyone who has left their details.'
        }
        actions={
          <>
            <RefreshButton loading={loading} onClick={reload} />
            <a href={csvHref} download className={buttonClasses({ variant: 'primary', size: 'sm' })}>
              Export CSV
            </a>
          </>
        }
      />
      <search className="mb-6 grid gap-4 rounded-3xl border border-line bg-white p-5 shadow-soft sm:grid-cols-2 lg:grid-cols-6">
        <div className="sm:col-span-2">
          <FilterField label="Search leads" id={ids.q}>
            <div className="relative">
              <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-muted" />
              <input
                id={ids.q}
                type="search"
                value={q}
                onChange={(e) => setQ(e.target.value)}
                placeholder="Name or email"
                className={cx(inputClass, 'pl-11')}
              />
            </div>
          </FilterField>
        </div>
        <FilterField label="Source" id={ids.source}>
          <input
            id={ids.source}
            value={source}
            onChange={(e) => setSource(e.target.value.toLowerCase())}
            placeholder="e.g. website"
            className={inputClass}
          />
        </FilterField>
        <FilterField label="Tier" id={ids.tier}>
          <select id={ids.tier} value={params.get('tier') ?? ''} onChange={(e) => setParam('tier', e.target.value)} className={inputClass}>
            <option value="">Any tier</option>
            {(Object.keys(TIER_LABELS) as Tier[]).map((tier) => (
              <option key={tier} value={tier}>
                {TIER_LABELS[tier]}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField label="Tag" id={ids.tag}>
          <input id={ids.tag} value={tag} onChange={(e) => setTag(e.target.value)} placeholder="e.g. vip" className={inputClass} />
        </FilterField>
        <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1 lg:grid-cols-1">
          <FilterField label="Created from" id={ids.from}>
            <input
              id={ids.from}
              type="date"
              value={params.get('from') ?? ''}
              onChange={(e) => setParam('from', e.target.value)}
              className={inputClass}
            />
          </FilterField>
          <FilterField label="Created to" id={ids.to}>
            <input
              id={ids.to}
              type="date"
              value={params.get('to') ?? ''}
              onChange={(e) => setParam('to', e.target.value)}
              className={inputClass}
            />
          </FilterField>
        </div>
        <div className="sm:col-span-2 lg:col-span-6">
          <IncludeTestSwitch checked={includeTest} onChange={setIncludeTest} />
        </div>
      </search>
      <p className="sr-only" role="status" aria-live="polite">
        {data && !loading ? `${data.total} leads` : ''}
      </p>
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6" aria-busy="true">
          {[0, 1, 2, 3, 4].map((n) => (
            <Skeleton key={n} className="h-6 w-full" />
          ))}
        </div>
      ) : data.items.length === 0 ? (
        <div className="rounded-3xl border border-line bg-white shadow-soft">
          <EmptyState>{filtered ? 'No leads match these filters' : 'No leads captured yet'}</EmptyState>
        </div>
      ) : (
        <div
          className={cx('rounded-3xl border border-line bg-white shadow-soft', loading && 'opacity-70')}
          aria-busy={loading || undefined}
        >
          <div className="overflow-x-auto">
            <table className="w-full min-w-[52rem] text-left text-sm">
              <caption className="sr-only">
                Leads, page {page} of {pages}
              </caption>
              <thead>
                <tr className="text-xs tracking-wider text-muted uppercase">
                  <SortHeader label="Email" column="email" sort={sort} dir={dir} onSort={onSort} className="pl-6" />
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Source
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Tier
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Archetype
                  </th>
                  <SortHeader label={SCORE_NAMES.leadership} column="leadership_score" sort={sort} dir={dir} onSort={onSort} />
                  <SortHeader label={SCORE_NAMES.qualification} column="qualification_score" sort={sort} dir={dir} onSort={onSort} />
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Paid
                  </th>
                  <SortHeader label="Created" column="created_at" sort={sort} dir={dir} onSort={onSort} className="pr-6" />
                </tr>
              </thead>
              <tbody>
                {data.items.map((lead) => (
                  <tr key={lead.id} data-lead={lead.id} className="border-t border-line/70 hover:bg-sand/40">
                    <td className="max-w-64 py-3 pr-3 pl-6">
                      <Link
                        to={`/admin/leads/${lead.id}`}
                        className="block truncate font-medium text-ink underline decoration-ink/20 underline-offset-2 hover:decoration-ink"
                      >
                        {lead.email}
                      </Link>
                      {lead.test && <span className="mt-1 inline-block rounded-full bg-sand px-2 py-0.5 text-xs font-medium">test</span>}
                    </td>
                    <td className="max-w-48 truncate px-3 py-3">{lead.name}</td>
                    <td className="px-3 py-3">
                      <span className="rounded-full bg-sand px-2.5 py-0.5 text-xs font-medium text-ink">{lead.source}</span>
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap">{tierLabel(lead.tier)}</td>
                    <td className="px-3 py-3">{lead.archetype ?? '—'}</td>
                    <td className="px-3 py-3 tabular-nums">{lead.leadership_score ?? '—'}</td>
                    <td className="px-3 py-3 tabular-nums">{lead.qualification_score ?? '—'}</td>
                    <td className="px-3 py-3 whitespace-nowrap">{paidText(lead)}</td>
                    <td className="py-3 pr-6 pl-3 whitespace-nowrap text-muted">
                      <time dateTime={lead.created_at.toISOString()}>{formatDate(lead.created_at)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav
            aria-label="Pagination"
            className="flex flex-wrap items-center justify-between gap-3 border-t border-line px-6 py-3 text-sm text-muted"
          >
            <p>
              Showing {(page - 1) * LEADS_PAGE_SIZE + 1}–{(page - 1) * LEADS_PAGE_SIZE + data.items.length} of {data.total} · Page {page} of{' '}
              {pages}
            </p>
            <div className="flex gap-2">
              <button
                type="button"
                className={buttonClasses({ variant: 'secondary', size: 'sm' })}
                disabled={page <= 1}
                onClick={() => setParam('page', String(page - 1))}
              >
                Previous
              </button>
              <button
                type="button"
                className={buttonClasses({ variant: 'secondary', size: 'sm' })}
                disabled={page >= pages}
                onClick={() => setParam('page', String(page + 1))}
              >
                Next
              </button>
            </div>
          </nav>
        </div>
      )}
    </>
  );
}
