import { api, post } from '../../lib/api.js';

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

/**
 * diagnostic-start: a standalone diagnostic flow of this visitor's, which the page then runs with
 * the shared machine like the modal's (its answers are the flow's events, graded by the server).
 */
export function startDiagnostic(leadId?: string) {
  return post<{ diagnosticId: string; flowId: string; bankVersion: string; total: number }>('/api/diagnostics', leadId ? { leadId } : {});
}

/** results-get. */
export function getResults(diagnosticId: string) {
  return api<{ diagnostic: DiagnosticResult | null }>(`/api/diagnostics/${encodeURIComponent(diagnosticId)}/results`);
}

/** The real PDF report of a diagnostic (one stable URL per diagnostic). */
export const reportUrl = (diagnosticId: string) => `/api/reports/${encodeURIComponent(diagnosticId)}.pdf`;
