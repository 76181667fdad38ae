import { z } from 'zod';
import { DiagnosticBank } from './diagnostic-bank.js';

/** Where content loading reports problems; console in the browser, pino on the server. */
export interface ContentLogger {
  warn(message: string): void;
}

/** A bank as bundled, before validation. */
export interface BankCandidate {
  name: string;
  data: unknown;
}

/** Every bank that passed validation, and the one to show new visitors. */
export interface LoadedBanks {
  /** The first valid candidate in preference order. */
  preferred: DiagnosticBank;
  /** Every valid bank by version, so answers taken on an older bank can still be graded. */
  byVersion: ReadonlyMap<string, DiagnosticBank>;
}

/**
 * Validates each candidate once and prefers the first that passes (v2, then v1, then built-in),
 * logging every failure and the bank it falls back to. Throws only when none is valid.
 */
export function loadDiagnosticBanks(candidates: readonly BankCandidate[], logger: ContentLogger): LoadedBanks {
  const byVersion = new Map<string, DiagnosticBank>();
  let preferred: DiagnosticBank | undefined;
  const failed: string[] = [];
  for (const candidate of candidates) {
    const parsed = DiagnosticBank.safeParse(candidate.data);
    if (!parsed.success) {
      failed.push(candidate.name);
      logger.warn(`Diagnostic bank ${candidate.name} failed validation: ${z.prettifyError(parsed.error)}`);
      continue;
    }
    byVersion.set(parsed.data.version, parsed.data);
    if (!preferred) {
      preferred = parsed.data;
      if (failed.length > 0) logger.warn(`Falling back to diagnostic bank ${candidate.name} (version ${parsed.data.version})`);
    }
  }
  if (!preferred) throw new Error(`No valid diagnostic bank among ${candidates.map((c) => c.name).join(', ')}`);
  return { preferred, byVersion };
}
