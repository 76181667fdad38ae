import { knownSessionSchema, type KnownSession, type LeadSession } from '#machines/protocol/common.js';
import type { PaymentPurpose } from '#machines/protocol/payment.js';
import { EMAIL_TTL_MS, STORAGE_KEYS } from '../features/assessment/opening.js';
import { localStore, readJson, safeRemove, safeSet, sessionStore, writeJson, type KeyValueStore } from './flows/storage.js';

export {
  EMAIL_TTL_MS,
  flowSlot,
  openingParameters,
  rememberEmail,
  STORAGE_KEYS,
  type OpeningParameters,
  type PageContext,
} from '../features/assessment/opening.js';

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

/** The testing panel's switch: on or off for this browser (overrides the local-host default). */
export function setTestingFlag(on: boolean, store: KeyValueStore = localStore()): void {
  safeSet(store, STORAGE_KEYS.enableTestingMode, on ? 'true' : 'false');
}
