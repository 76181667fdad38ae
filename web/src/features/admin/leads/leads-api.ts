import type { Tier } from '#machines/protocol/common.js';
import type { LeadDetail } from '#machines/protocol/admin/leads.js';

/** The admin leads API's helpers; its shapes are the shared schemas of #machines/protocol/admin/leads.js. */

export type { Tier };

export const TIER_LABELS: Record<Tier, string> = { book_call: 'Book call', homework: 'Homework', nurture: 'Nurture' };

export function tierLabel(tier: string | null): string {
  return tier ? (TIER_LABELS[tier as Tier] ?? tier) : '—';
}

export type { LeadDetail, LeadNote, LeadPage } from '#machines/protocol/admin/leads.js';

/** Parts of a lead's detail the panels show one by one. */
export type LeadFlow = LeadDetail['flows'][number];
export type FlowEventRow = LeadFlow['events'][number];
export type LeadPayment = LeadDetail['payments'][number];
export type LeadEmail = LeadDetail['emails'][number];
export type LeadJob = LeadDetail['jobs'][number];
export type DiagnosticAnswer = LeadDetail['diagnostics'][number]['sections'][number]['answers'][number];

/** The filter keys the table keeps in the address bar and passes to the API. */
const FILTER_KEYS = ['q', 'source', 'tier', 'tag', 'from', 'to', 'includeTest', 'sort', 'dir'] as const;

/**
 * The API query for the table's address-bar parameters, dropping blanks and values the server
 * would refuse; dates are the admin's days, in the time zone the Overview counts them in.
 */
export function apiQuery(params: URLSearchParams, withPage: boolean, timeZone: string): string {
  const out = new URLSearchParams({ tz: timeZone });
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (!value) continue;
    if (key === 'source' && !/^[a-z0-9_-]{1,40}$/.test(value)) continue;
    if ((key === 'from' || key === 'to') && !/^\d{4}-\d{2}-\d{2}$/.test(value)) continue;
    if (key === 'includeTest' && value !== 'true') continue;
    out.set(key, value);
  }
  if (withPage) {
    const page = Number(params.get('page'));
    if (Number.isInteger(page) && page > 1) out.set('page', String(page));
    out.set('pageSize', String(LEADS_PAGE_SIZE));
  }
  return out.toString();
}

export const LEADS_PAGE_SIZE = 25;

export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
