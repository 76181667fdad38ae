import type { FlowMode } from '#machines/protocol/common.js';
import { localStore, safeSet, type KeyValueStore } from '../../lib/flows/storage.js';

/*
 * What the page's first script needs to know about the assessment before its code is loaded
 * (web/src/features/assessment/early-capture.ts), kept free of the machines' schemas.
 */

/**
 * The product's browser storage keys this build still needs, and the few it adds
 * (hf:leadSession, hf:testPayment). A completed assessment is not kept here: the server stores it
 * with the grading and opens a returning visitor's flow at completed_results.
 */
export const STORAGE_KEYS = {
  userEmail: 'hf:userEmail',
  emailTimestamp: 'hf:emailTimestamp',
  diagId: 'hf:diagId',
  diagnosticResults: 'hf:diagnosticResults',
  paymentIntentId: 'payment_intent_id',
  paymentType: 'payment_type',
  testPayment: 'hf:testPayment',
  enableTestingMode: 'enableTestingMode',
  /** The lead session, per tab (sessionStorage). */
  leadSession: 'hf:leadSession',
  /** This browser has started an assessment: the server may open its next one elsewhere than the capture. */
  assessmentStarted: 'hf:assessmentStarted',
} as const;

/** The slot a mode's assessment flow is kept under (FlowIdStore). */
export const flowSlot = (mode: FlowMode) => `assessment:${mode}`;

/** Where the modal runs, as far as testing mode and the query parameters are concerned. */
export interface PageContext {
  hostname: string;
  search: string;
}

/** What the page's address and the local flag say. */
export interface OpeningParameters {
  token: string | null;
  ref: string | null;
  /**
   * Testing mode: a local host, test=true, testing=true or the enableTestingMode flag. It clears
   * stored assessment state on open and tags new leads as test leads. On a local host it can be
   * switched off with enableTestingMode=false (the testing panel's switch), to try the stored
   * results screen locally.
   */
  testing: boolean;
  /** The testing panel shows only on a local host or with testing=true. */
  showTestingPanel: boolean;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** True for this machine's own addresses. */
function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith('.localhost');
}

/** Reads token, ref, test and testing from the address, and the local testing flag. */
export function openingParameters(page: PageContext, store: KeyValueStore = localStore()): OpeningParameters {
  const params = new URLSearchParams(page.search);
  const local = isLocalHost(page.hostname);
  const flag = store.getItem(STORAGE_KEYS.enableTestingMode);
  const testingParam = params.get('testing') === 'true';
  const testing = testingParam || params.get('test') === 'true' || flag === 'true' || (local && flag !== 'false');
  const text = (name: string) => {
    const value = params.get(name)?.trim();
    return value ? value.slice(0, 200) : null;
  };
  return { token: text('token'), ref: text('ref'), testing, showTestingPanel: local || testingParam };
}

/**
 * Notes that this browser started an assessment (a server flow), so the next one opens in the
 * modal: the server may open it at the completed results (a returning visitor, known by a cookie
 * the page cannot read) rather than at the capture the early screen draws.
 */
export function rememberAssessmentStarted(store: KeyValueStore = localStore()): void {
  safeSet(store, STORAGE_KEYS.assessmentStarted, '1');
}

/** Whether this browser started an assessment before. */
export const assessmentStartedBefore = (store: KeyValueStore = localStore()): boolean =>
  store.getItem(STORAGE_KEYS.assessmentStarted) !== null;

/** A stored email is forgotten after 30 days. */
export const EMAIL_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Remembers the visitor's email for 30 days (hf:userEmail with hf:emailTimestamp). */
export function rememberEmail(email: string, store: KeyValueStore = localStore(), now = Date.now()): void {
  const trimmed = email.trim();
  if (!trimmed) return;
  safeSet(store, STORAGE_KEYS.userEmail, trimmed);
  safeSet(store, STORAGE_KEYS.emailTimestamp, String(now));
}
