import type { z } from 'zod';

/** The part of the Web Storage API used here (a Map-backed stand-in where storage is unavailable). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

/** A Map-backed store: tests, and browsers that refuse storage (private modes, blocked cookies). */
export function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    get length() {
      return map.size;
    },
    key: (index) => [...map.keys()][index] ?? null,
  };
}

function browserStore(kind: 'localStorage' | 'sessionStorage'): KeyValueStore {
  try {
    const store = globalThis[kind];
    if (!store) return memoryStore();
    // reading and writing can both throw (quota, privacy settings); find out now, once
    const probe = '__hf_probe__';
    store.setItem(probe, probe);
    store.removeItem(probe);
    return store;
  } catch {
    return memoryStore();
  }
}

let local: KeyValueStore | null = null;
let session: KeyValueStore | null = null;

/** window.localStorage, or a stand-in when it cannot be used. */
export function localStore(): KeyValueStore {
  return (local ??= browserStore('localStorage'));
}

/** window.sessionStorage (per tab), or a stand-in when it cannot be used. */
export function sessionStore(): KeyValueStore {
  return (session ??= browserStore('sessionStorage'));
}

/** Writes without throwing: a full or refused storage must not break the page. */
export function safeSet(store: KeyValueStore, key: string, value: string): void {
  try {
    store.setItem(key, value);
  } catch {
    // nothing to do: the value simply is not kept
  }
}

/** Removes without throwing. */
export function safeRemove(store: KeyValueStore, key: string): void {
  try {
    store.removeItem(key);
  } catch {
    // nothing to do
  }
}

/** Removes every key that starts with `prefix`. */
export function removeWithPrefix(store: KeyValueStore, prefix: string): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    for (const key of keys) safeRemove(store, key);
  } catch {
    // nothing to do
  }
}

/** Reads JSON checked by `schema`; anything else stored there is corrupt and is removed. */
export function readJson<T>(store: KeyValueStore, key: string, schema: z.ZodType<T>): T | null {
  let raw: string | null;
  try {
    raw = store.getItem(key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: corrupt as well
  }
  safeRemove(store, key);
  return null;
}

/** Writes a value as JSON. */
export function writeJson(store: KeyValueStore, key: string, value: unknown): void {
  safeSet(store, key, JSON.stringify(value));
}

const FLOW_PREFIX = 'hf:flow:';
/** A flow kept for another tab is resumed for this long at most. */
export const SHARED_FLOW_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Where a tab keeps the ids of the flows it is running, by slot (e.g. 'assessment' or a child
 * flow's key). The tab's own sessionStorage is authoritative, so a reload resumes exactly its
 * flow; a copy in localStorage (with a time limit) lets a second tab resume the same flow.
 */
export class FlowIdStore {
  constructor(
    private readonly tab: KeyValueStore = sessionStore(),
    private readonly shared: KeyValueStore = localStore(),
    private readonly now: () => number = Date.now,
  ) {}

  /** The flow id of `slot`: this tab's, else another tab's if recent enough. */
  get(slot: string): string | null {
    const key = FLOW_PREFIX + slot;
    const own = safeGet(this.tab, key);
    if (own) return own;
    const raw = safeGet(this.shared, key);
    if (!raw) return null;
    const [id, savedAt] = raw.split('|');
    if (id && savedAt && this.now() - Number(savedAt) < SHARED_FLOW_TTL_MS) return id;
    safeRemove(this.shared, key);
    return null;
  }

  /** Keeps `flowId` for this tab and, unless `share` is false, for other tabs too. */
  set(slot: string, flowId: string, { share = true }: { share?: boolean } = {}): void {
    const key = FLOW_PREFIX + slot;
    safeSet(this.tab, key, flowId);
    if (share) safeSet(this.shared, key, `${flowId}|${this.now()}`);
  }

  /** Stops offering the flow to other tabs; this tab still resumes it. */
  unshare(slot: string): void {
    safeRemove(this.shared, FLOW_PREFIX + slot);
  }

  /** Forgets every slot starting with `prefix`, in this tab and for other tabs. */
  forgetAll(prefix: string): void {
    removeWithPrefix(this.tab, FLOW_PREFIX + prefix);
    removeWithPrefix(this.shared, FLOW_PREFIX + prefix);
  }

  /** Forgets the slot in this tab and for other tabs. */
  forget(slot: string): void {
    safeRemove(this.tab, FLOW_PREFIX + slot);
    safeRemove(this.shared, FLOW_PREFIX + slot);
  }
}

function safeGet(store: KeyValueStore, key: string): string | null {
  try {
    return store.getItem(key);
  } catch {
    return null;
  }
}
