import { STORAGE_KEYS } from '../../lib/browser-storage.js';
import { localStore, safeRemove, safeSet, type KeyValueStore } from '../../lib/flows/storage.js';

/** Forgets the previous standalone diagnostic (hf:diagId and its cached results) before a new one starts. */
export function clearStoredDiagnostic(store: KeyValueStore = localStore()): void {
  safeRemove(store, STORAGE_KEYS.diagId);
  safeRemove(store, STORAGE_KEYS.diagnosticResults);
}

/** Keeps the id of the standalone diagnostic just started (hf:diagId). */
export function storeDiagnosticId(id: string, store: KeyValueStore = localStore()): void {
  safeSet(store, STORAGE_KEYS.diagId, id);
}

/** The stored standalone diagnostic id, or null. */
export function storedDiagnosticId(store: KeyValueStore = localStore()): string | null {
  try {
    return store.getItem(STORAGE_KEYS.diagId) || null;
  } catch {
    return null;
  }
}
