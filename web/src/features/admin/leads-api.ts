/** Types of the admin leads API (server/admin/leads-schemas.ts; dates arrive as ISO strings). */

export type Tier = 'book_call' | 'homework' | 'nurture';

export const TIER_LABELS: Record<Tier, string> = { book_call: 'Book call', homework: 'Homework', nurture: 'Nurture' };

export function tierLabel(tier: string | null): string {
  return tier ? (TIER_LABELS[tier as Tier] ?? tier) : '—';
}

interface LeadRow {
  id: string;
  email: string;
  name: string;
  source: string;
  tier: Tier | null;
  archetype: string | null;
  total_score: number | null;
  tags: string[];
  created_at: string;
}

export interface LeadPage {
  items: LeadRow[];
  total: number;
  page: number;
  pageSize: number;
}

export interface FlowEventRow {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  origin: string;
  state_after: string;
  created_at: string;
}

export interface LeadFlow {
  id: string;
  machine: string;
  mode: string;
  state: string;
  testing: boolean;
  created_at: string;
  updated_at: string;
  events: FlowEventRow[];
}

export interface LeadNote {
  id: string;
  lead_id: string;
  author_id: string | null;
  author_email: string | null;
  body: string;
  created_at: string;
}

export interface LeadPayment {
  id: string;
  purpose: string;
  amount_cents: number;
  currency: string;
  status: string;
  test_mode: boolean;
  payment_intent_id: string | null;
  refunded_at: string | null;
  created_at: string;
}

/** A survey question beside its answer in words (null: an optional question left blank). */
interface SurveyAnswer {
  id: string;
  question: string;
  answer: string | null;
}

/** A diagnostic screen beside its answer in words; a ranking's answer is its labels, first to last. */
export interface DiagnosticAnswer {
  id: string;
  type: string;
  question: string;
  answer: string | string[];
  confidence: string | null;
  timedOut: boolean;
  responseMs: number;
}

/** One diagnostic the lead took, its answers grouped by the bank's sections in the order shown. */
interface LeadDiagnostic {
  id: string;
  bank_version: string;
  started_at: string;
  sections: Array<{ title: string; answers: DiagnosticAnswer[] }>;
}

export interface LeadEmail {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  attachments: Array<{ filename: string; contentType: string; size: number }>;
  status: string;
  error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface LeadJob {
  id: string;
  queue: string;
  name: string;
  status: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface LeadDetail {
  lead: LeadRow & { updated_at: string };
  result: {
    id: string;
    tier: string;
    qualification: string;
    archetype: string;
    total_score: number;
    diagnostic_score: number;
    survey_score: number;
    mirror_score: number;
    composite_score: number;
    gaming_detected: boolean;
    fallback: boolean;
    scores: Record<string, number>;
    qualificationReasoning: string[];
    narrative: string | null;
    created_at: string;
  } | null;
  diagnostics: LeadDiagnostic[];
  surveys: Array<{ id: string; answers: SurveyAnswer[]; survey_score: number | null; created_at: string }>;
  mirrorSessions: Array<{
    id: string;
    saved: boolean;
    turns: number;
    completed: boolean;
    created_at: string;
    messages: Array<{ role: string; content: string; turn: number; created_at: string }>;
  }>;
  payments: LeadPayment[];
  emails: LeadEmail[];
  jobs: LeadJob[];
  notes: LeadNote[];
  flows: LeadFlow[];
}

/** The filter keys the table keeps in the address bar and passes to the API. */
const FILTER_KEYS = ['q', 'source', 'tier', 'tag', 'from', 'to', 'sort', 'dir'] as const;

/** The API query for the table's address-bar parameters, dropping blanks and values the server would refuse. */
export function apiQuery(params: URLSearchParams, withPage: boolean): string {
  const out = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (!value) continue;
    if (key === 'source' && !/^[a-z0-9_-]{1,40}$/.test(value)) continue;
    if ((key === 'from' || key === 'to') && !/^\d{4}-\d{2}-\d{2}$/.test(value)) continue;
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
