import { knownSessionSchema, type FlowMode, type KnownSession, type LeadSession } from '#machines/protocol/common.js';
import type { PaymentPurpose } from '#machines/protocol/payment.js';
import { localStore, readJson, safeRemove, safeSet, sessionStore, writeJson, type KeyValueStore } from '../../lib/flows/storage.js';

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
} as const;

/** The slot a mode's assessment flow is kept under (FlowIdStore). */
export const flowSlot = (mode: FlowMode) => `assessment:${mode}`;

/** A stored email is forgotten after 30 days. */
export const EMAIL_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Remembers the visitor's email for 30 days (hf:userEmail with hf:emailTimestamp). */
export function rememberEmail(email: string, store: KeyValueStore = localStore(), now = Date.now()): void {
  const trimmed = email.trim();
  if (!trimmed) return;
  safeSet(store, STORAGE_KEYS.userEmail, trimmed);
  safeSet(store, STORAGE_KEYS.emailTimestamp, String(now));
}

/** The remembered email, or null when none is kept or it is older than 30 days (then it is removed). */
export function rememberedEmail(store: KeyValueStore = localStore(), now = Date.now()): string | null {
  const email = store.getItem(STORAGE_KEYS.userEmail);
  const savedAt = Number(store.getItem(STORAGE_KEYS.emailTimestamp));
  if (email && Number.isFinite(savedAt) && savedAt > 0 && now - savedAt < EMAIL_TTL_MS) return email;
  if (email !== null || store.getItem(STORAGE_KEYS.emailTimestamp) !== null) {
    safeRemove(store, STORAGE_KEYS.userEmail);
    safeRemove(store, STORAGE_KEYS.emailTimestamp);
  }
  return null;
}

/** Keeps this tab's lead session once it has a lead (the spec's shorter form). */
export function rememberLeadSession(lead: LeadSession, store: KeyValueStore = sessionStore()): void {
  if (!lead.leadId) return;
  const known: KnownSession = { leadId: lead.leadId, email: lead.email, name: lead.name, source: lead.source, leadToken: lead.leadToken };
  writeJson(store, STORAGE_KEYS.leadSession, known);
}

/** This tab's lead session, if it has one (a known session skips capture). */
export function knownLeadSession(store: KeyValueStore = sessionStore()): KnownSession | null {
  return readJson(store, STORAGE_KEYS.leadSession, knownSessionSchema);
}

/** Forgets this tab's lead session (testing mode's reset). */
export function forgetLeadSession(store: KeyValueStore = sessionStore()): void {
  safeRemove(store, STORAGE_KEYS.leadSession);
}

/**
 * The test payment's local flags ("the test payment sets local flags"), once per
 * payment: the flow shows the same confirmed payment on every later render and reload.
 */
export function recordTestPayment(
  payment: { paymentIntentId: string; purpose: PaymentPurpose; amountCents: number },
  store: KeyValueStore = localStore(),
  now = new Date(),
): void {
  if (store.getItem(STORAGE_KEYS.paymentIntentId) === payment.paymentIntentId) return;
  safeSet(store, STORAGE_KEYS.paymentIntentId, payment.paymentIntentId);
  safeSet(store, STORAGE_KEYS.paymentType, payment.purpose);
  writeJson(store, STORAGE_KEYS.testPayment, { ...payment, at: now.toISOString() });
}

/** A real checkout about to open: what it pays for, for the page the visitor returns to. */
export function recordCheckoutStart(purpose: PaymentPurpose, store: KeyValueStore = localStore()): void {
  safeSet(store, STORAGE_KEYS.paymentType, purpose);
}

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

/** The testing panel's switch: on or off for this browser (overrides the local-host default). */
export function setTestingFlag(on: boolean, store: KeyValueStore = localStore()): void {
  safeSet(store, STORAGE_KEYS.enableTestingMode, on ? 'true' : 'false');
}
