import { api, post } from '../../lib/api';

/** An answer as the standalone page sends it (spec section 3). */
export interface StandaloneAnswer {
  id: string;
  type: 'likert' | 'vignette' | 'ranking';
  value: number | string | string[];
  confidence?: number;
  ms: number;
}

/** The diagnostic result in its stored form; reasoning and fallback appear only when a grader adds them. */
export interface DiagnosticResult {
  id: string;
  scores: Partial<Record<string, number>>;
  archetype: string;
  narrative: string;
  completed_at: string;
  reasoning?: string | null;
  fallback?: boolean;
}

/** diagnostic-start. */
export function startDiagnostic(leadId?: string) {
  return post<{ diagnosticId: string; bankVersion: string; total: number }>('/api/diagnostics', leadId ? { leadId } : {});
}

/** diagnostic-answer. */
export function sendAnswer(diagnosticId: string, answer: StandaloneAnswer) {
  return post(`/api/diagnostics/${encodeURIComponent(diagnosticId)}/answers`, { answer });
}

/** diagnostic-complete. */
export function completeDiagnostic(diagnosticId: string) {
  return post<{ diagnosticId: string; diagnostic: DiagnosticResult }>(`/api/diagnostics/${encodeURIComponent(diagnosticId)}/complete`);
}

/** results-get. */
export function getResults(diagnosticId: string) {
  return api<{ diagnostic: DiagnosticResult | null }>(`/api/diagnostics/${encodeURIComponent(diagnosticId)}/results`);
}

/** The real PDF report of a diagnostic (one stable URL per diagnostic). */
export const reportUrl = (diagnosticId: string) => `/api/reports/${encodeURIComponent(diagnosticId)}.pdf`;
